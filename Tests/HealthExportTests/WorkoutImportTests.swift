import Foundation
import HealthFlow
import Testing

@testable import HealthExport

/// An export's `Workout`s become stored workout samples: activity type, totals, events, activities, statistics,
/// source and metadata, with a content identity (a re-import adds nothing); a workout that breaks HealthKit's
/// rules is a listed skip, and what the model cannot hold is counted.
@Suite(.timeLimit(.minutes(10)))
struct WorkoutImportTests {
    let app = ExportFixtures.app

    /// An older export's workout: totals on the element itself, no activities.
    static let olderWorkout = """
         <Workout workoutActivityType="HKWorkoutActivityTypeCycling" duration="45.5" durationUnit="min" totalDistance="18.2" totalDistanceUnit="km" totalEnergyBurned="402" totalEnergyBurnedUnit="kcal" sourceName="Zoë’s iPhone" sourceVersion="12.1" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch&gt;" creationDate="2019-06-01 09:50:00 +0200" startDate="2019-06-01 09:00:00 +0200" endDate="2019-06-01 09:50:00 +0200">
          <WorkoutEvent type="HKWorkoutEventTypeLap" date="2019-06-01 09:20:00 +0200"/>
          <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2019-06-01 09:00:00 +0200" duration="10" durationUnit="min"/>
         </Workout>

        """

    static func workout(
        type: String = "HKWorkoutActivityTypeRunning", distanceUnit: String = "km",
        event: String = "2024-03-05 18:10:00 +0100", statisticsType: String = "HKQuantityTypeIdentifierHeartRate"
    ) -> String {
        """
         <Workout workoutActivityType="\(type)" duration="20" durationUnit="min" totalDistance="3" totalDistanceUnit="\(distanceUnit)" sourceName="Apple Watch von Zoë" startDate="2024-03-05 18:00:00 +0100" endDate="2024-03-05 18:20:00 +0100">
          <WorkoutEvent type="HKWorkoutEventTypeMarker" date="\(event)"/>
          <WorkoutStatistics type="\(statisticsType)" startDate="2024-03-05 18:00:00 +0100" endDate="2024-03-05 18:20:00 +0100" average="140" minimum="101" maximum="171" unit="count/min"/>
         </Workout>

        """
    }

    func importing(_ body: String, into store: (any HealthStore)? = nil) async throws
        -> (HealthExportReport, any HealthStore)
    {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(body), in: directory)
        let target = store ?? InMemoryHealthStore(configuration: app)
        return (try await HealthExportImport(path: path).run(into: target), target)
    }

    static func workouts(in store: any HealthStore) async throws -> [HealthWorkout] {
        try await store.samples(of: .workout, sortedBy: [.startDate()]).compactMap {
            if case .workout(let workout) = $0 { workout } else { nil }
        }
    }

    @Test func aWorkoutBecomesAStoredSampleWithEveryPartOfIt() async throws {
        let (report, store) = try await importing(ExportFixtures.workout)
        #expect(report.imported == ["workout": 1])
        #expect(report.workoutRouteFiles == 1)
        #expect(!report.unmappedElements.keys.contains { $0.hasPrefix("Workout") }, "\(report.unmappedElements)")
        let workout = try #require(try await Self.workouts(in: store).first)
        #expect(workout.activityType == .running)
        #expect(workout.duration == 1800)
        #expect(workout.source.name == "Apple Watch von Zoë")
        #expect(workout.metadata[MetadataKey(rawValue: "HKIndoorWorkout")] == .string("0"))
        #expect(workout.metadata[.exportSourceVersion] == .string("10.2"))
        #expect(workout.metadata[.exportUTCOffset] == .string("+0100"))
        #expect(workout.metadata[.exportWorkoutRoutes] == .string("/workout-routes/route_2024-03-01_6.30pm.gpx"))
        let pause = try #require(workout.events.first)
        #expect(pause.type == .pause)
        #expect(pause.endDate.timeIntervalSince(pause.startDate) == 60)
        #expect(workout.statistics.map(\.type) == [.activeEnergyBurned])
        let activity = try #require(workout.activities.first)
        #expect(activity.activityType == .running)
        #expect(activity.statistics.first?.type == .heartRate)
        #expect(
            activity.statistics.first?.average
                == (try HealthQuantity(unit: HealthUnit(from: "count/min"), doubleValue: 151)))
    }

    @Test func anOlderExportsWorkoutKeepsItsTotalsDeviceAndEvents() async throws {
        let (report, store) = try await importing(Self.olderWorkout)
        #expect(report.imported == ["workout": 1])
        let workout = try #require(try await Self.workouts(in: store).first)
        #expect(workout.activityType == .cycling)
        #expect(workout.duration == 45.5 * 60)
        #expect(workout.totalDistance == HealthQuantity(unit: .meterUnit(with: .kilo), doubleValue: 18.2))
        #expect(workout.totalEnergyBurned == HealthQuantity(unit: .kilocalorie(), doubleValue: 402))
        #expect(workout.metadata[.exportDevice] == .string("<<HKDevice: 0x1>, name:Apple Watch>"))
        #expect(workout.events.map(\.type) == [.lap, .segment])
        #expect(workout.events[1].endDate.timeIntervalSince(workout.events[1].startDate) == 600)
    }

    /// A newer export's workout: no totals on the element, only `WorkoutStatistics`.
    static func newerWorkout(distances: [String]) -> String {
        let statistics = distances.map { type in
            """
              <WorkoutStatistics type="\(type)" startDate="2024-03-05 18:00:00 +0100" endDate="2024-03-05 18:20:00 +0100" sum="3.1" unit="km"/>

            """
        }
        return """
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="20" durationUnit="min" sourceName="Apple Watch von Zoë" startDate="2024-03-05 18:00:00 +0100" endDate="2024-03-05 18:20:00 +0100">
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-03-05 18:00:00 +0100" endDate="2024-03-05 18:20:00 +0100" sum="250.5" unit="Cal"/>
            \(statistics.joined())     </Workout>

            """
    }

    @Test func aNewerExportsWorkoutTakesItsTotalsFromItsEnergyAndDistanceStatistics() async throws {
        let (report, store) = try await importing(
            Self.newerWorkout(distances: ["HKQuantityTypeIdentifierDistanceWalkingRunning"]))
        #expect(report.imported == ["workout": 1])
        let workout = try #require(try await Self.workouts(in: store).first)
        #expect(workout.totalEnergyBurned == HealthQuantity(unit: .largeCalorie(), doubleValue: 250.5))
        #expect(workout.totalDistance == HealthQuantity(unit: .meterUnit(with: .kilo), doubleValue: 3.1))
        #expect(workout.statistics.map(\.type) == [.activeEnergyBurned, .distanceWalkingRunning])
    }

    @Test func aWorkoutWithTwoDistanceStatisticsHasNoTotalDistance() async throws {
        let (_, store) = try await importing(
            Self.newerWorkout(distances: [
                "HKQuantityTypeIdentifierDistanceWalkingRunning", "HKQuantityTypeIdentifierDistanceCycling",
            ]))
        let workout = try #require(try await Self.workouts(in: store).first)
        #expect(workout.totalDistance == nil)
        #expect(workout.totalEnergyBurned == HealthQuantity(unit: .largeCalorie(), doubleValue: 250.5))
        #expect(workout.statistics.count == 3)
    }

    @Test func reimportingAddsNoWorkoutAndANewerExportAddsOnlyTheNewOne() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileHealthStore(directory: directory.appendingPathComponent("store"), configuration: app)
        defer { store.close() }
        let first = try ExportFixtures.write(ExportFixtures.export(ExportFixtures.workout), in: directory)
        let initial = try await HealthExportImport(path: first).run(into: store)
        #expect(initial.imported == ["workout": 1])
        let again = try await HealthExportImport(path: first).run(into: store)
        #expect(again.importedCount == 0)
        #expect(again.alreadyInStore == 1)
        let newer = try ExportFixtures.write(
            ExportFixtures.export(ExportFixtures.workout + Self.workout()), named: "newer.xml", in: directory)
        let update = try await HealthExportImport(path: newer).run(into: store)
        #expect(update.imported == ["workout": 1])
        #expect(update.alreadyInStore == 1)
        #expect(try await Self.workouts(in: store).count == 2)
    }

    @Test func aWorkoutWithAnEventOutsideItIsSkippedWithItsLine() async throws {
        let (report, store) = try await importing(Self.workout(event: "2024-03-05 18:30:00 +0100"))
        #expect(report.skipped == [.invalidValue: 1])
        let skip = try #require(report.skips.first)
        #expect(skip.element == "Workout")
        #expect(skip.line > 1)
        #expect(skip.detail.contains("events[0]"))
        #expect(try await Self.workouts(in: store).isEmpty)
    }

    @Test func aWorkoutWhoseDistanceIsNotALengthIsSkippedAsUnitNotForType() async throws {
        let (report, _) = try await importing(Self.workout(distanceUnit: "kcal"))
        #expect(report.skipped == [.unitNotForType: 1])
        #expect(report.skips.first?.detail.contains("totalDistance") == true)
    }

    @Test func anActivityTypeThatIsNotAHealthKitNameIsSkippedAsInvalid() async throws {
        let (report, _) = try await importing(Self.workout(type: "Running"))
        #expect(report.skipped == [.invalidValue: 1])
        #expect(report.skips.first?.detail.contains("workoutActivityType") == true)
    }

    @Test func anUnlistedActivityTypeIsKeptByItsName() async throws {
        let (report, store) = try await importing(Self.workout(type: "HKWorkoutActivityTypeUnderwaterDiving"))
        #expect(report.imported == ["workout": 1])
        #expect(try await Self.workouts(in: store).first?.activityType.name == "underwaterDiving")
    }

    @Test func statisticsOfATypeTheCatalogLacksAreCountedAndTheWorkoutKept() async throws {
        let (report, store) = try await importing(
            Self.workout(statisticsType: "HKQuantityTypeIdentifierRunningPowerOfTheFuture"))
        #expect(report.imported == ["workout": 1])
        #expect(report.unknownTypes == ["WorkoutStatistics HKQuantityTypeIdentifierRunningPowerOfTheFuture": 1])
        #expect(try await Self.workouts(in: store).first?.statistics.isEmpty == true)
    }
}
