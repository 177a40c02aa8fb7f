import Foundation
import HealthFlow
import Testing

extension DocExamples {
    /// The examples of `HealthFlow.docc/HealthFlow.md`.
    @Suite struct HealthFlowOverview {
        @Test func authorizesSavesAndReadsBackToday() async throws {
            let midnight = Calendar.current.startOfDay(for: Date())
            let walker = HealthSource(bundleIdentifier: "com.example.steps", name: "Steps")
            let walk = try HealthQuantitySample(
                type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: 1_200),
                start: midnight.addingTimeInterval(600), end: midnight.addingTimeInterval(1_200), source: walker)
            let app = HealthAppConfiguration(
                bundleIdentifier: "com.example.steps", name: "Steps",
                healthShareUsageDescription: "Shows your steps.", healthUpdateUsageDescription: "Logs your walks.")
            let store = InMemoryHealthStore(configuration: app, policy: .grantAll)

            try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount]) as Void
            try await store.save(.quantity(walk)) as Void
            let today: [HealthSample] = try await store.samples(
                of: .stepCount, matching: .samples(withStart: midnight, end: nil))
            #expect(today.map(\.uuid) == [walk.uuid])
        }

        @Test func savesAndReadsBackAWorkout() async throws {
            let start = Date(timeIntervalSince1970: 1_709_294_400)
            let app = HealthAppConfiguration(
                bundleIdentifier: "com.example.runs", name: "Runs", healthShareUsageDescription: "Shows your runs.",
                healthUpdateUsageDescription: "Logs your runs.")
            let store = InMemoryHealthStore(configuration: app, policy: .grantAll)

            let pause = HealthWorkout.Event(
                type: .pause, start: start.addingTimeInterval(600), end: start.addingTimeInterval(660))
            let run = try HealthWorkout(
                activityType: .running, start: start, end: start.addingTimeInterval(1_800), duration: 1_740,
                totalEnergyBurned: HealthQuantity(unit: .kilocalorie(), doubleValue: 310),
                totalDistance: HealthQuantity(unit: .meterUnit(with: .kilo), doubleValue: 5.2), events: [pause],
                source: app.source)
            try await store.requestAuthorization(toShare: [.workout], read: [.workout]) as Void
            try await store.save(.workout(run)) as Void
            let runs: [HealthSample] = try await store.samples(of: .workout)
            #expect(runs == [.workout(run)])
            #expect(throws: ValidationError.self) {
                try HealthWorkout(
                    activityType: .running, start: start, end: start.addingTimeInterval(1_800),
                    totalDistance: HealthQuantity(unit: .kilocalorie(), doubleValue: 310), source: app.source)
            }
        }
    }
}
