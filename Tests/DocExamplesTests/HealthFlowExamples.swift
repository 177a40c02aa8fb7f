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
    }
}
