import Foundation
import Testing

@testable import HealthFlow

/// `HealthWorkout` follows `HKWorkout`'s rules: typed errors instead of exceptions, and a JSON form that decodes
/// to the same workout.
struct HealthWorkoutTests {
    static let start = Fixture.noon
    static let end = Fixture.noon.addingTimeInterval(1800)

    /// A run with a pause, one activity with heart-rate figures, energy and distance.
    static func run(uuid: UUID = UUID(), start: Date = start) throws -> HealthWorkout {
        let end = start.addingTimeInterval(1800)
        let heartRate = HealthWorkout.Statistics(
            type: .heartRate, start: start, end: end, average: try Fixture.quantity(151, "count/min"),
            minimum: try Fixture.quantity(98, "count/min"), maximum: try Fixture.quantity(176, "count/min"))
        let energy = HealthWorkout.Statistics(
            type: .activeEnergyBurned, start: start, end: end, sum: try Fixture.quantity(310.5, "kcal"))
        let pause = HealthWorkout.Event(
            type: .pause, start: start.addingTimeInterval(600), end: start.addingTimeInterval(660),
            metadata: [MetadataKey(rawValue: "Note"): .string("shoelace")])
        let activity = HealthWorkout.Activity(
            activityType: .running, start: start, end: end, events: [pause], statistics: [heartRate],
            uuid: UUID(uuidString: "8E1B0000-0000-4000-8000-000000000001")!)
        return try HealthWorkout(
            activityType: .running, start: start, end: end, duration: 1740,
            totalEnergyBurned: try Fixture.quantity(310.5, "kcal"), totalDistance: try Fixture.quantity(5.2, "km"),
            events: [pause, HealthWorkout.Event(type: .lap, start: end, end: end)], activities: [activity],
            statistics: [heartRate, energy], source: Fixture.watch,
            metadata: [MetadataKey(rawValue: "HKIndoorWorkout"): .string("0")],
            uuid: uuid)
    }

    @Test func activityTypeReadsAndWritesHealthKitNamesKeepingUnlistedOnes() {
        #expect(HealthWorkout.ActivityType(healthKitName: "HKWorkoutActivityTypeRunning") == .running)
        #expect(
            HealthWorkout.ActivityType.traditionalStrengthTraining.healthKitName
                == "HKWorkoutActivityTypeTraditionalStrengthTraining")
        let newer = HealthWorkout.ActivityType(healthKitName: "HKWorkoutActivityTypeUnderwaterDiving")
        #expect(newer?.name == "underwaterDiving")
        #expect(newer?.isListed == false)
        #expect(newer?.healthKitName == "HKWorkoutActivityTypeUnderwaterDiving")
        #expect(HealthWorkout.ActivityType(healthKitName: "Running") == nil)
        #expect(HealthWorkout.ActivityType(healthKitName: "HKWorkoutActivityType") == nil)
    }

    @Test func eventTypesUseHealthKitRawValuesAndNames() {
        #expect(HealthWorkout.Event.EventType.pause.rawValue == 1)
        #expect(HealthWorkout.Event.EventType.pauseOrResumeRequest.rawValue == 8)
        #expect(HealthWorkout.Event.EventType(healthKitName: "HKWorkoutEventTypeMotionPaused") == .motionPaused)
        #expect(HealthWorkout.Event.EventType(healthKitName: "HKWorkoutEventTypeNap") == nil)
    }

    @Test func aValidWorkoutKeepsItsFieldsAndSortsStatisticsByType() throws {
        let workout = try Self.run()
        #expect(workout.type == .workout)
        #expect(workout.statistics.map(\.type) == [.activeEnergyBurned, .heartRate])
        #expect(workout.statistics(for: .heartRate)?.maximum == (try Fixture.quantity(176, "count/min")))
        #expect(workout.statistics(for: .stepCount) == nil)
        #expect(workout.duration == 1740)
        let plain = try HealthWorkout(activityType: .walking, start: Self.start, end: Self.end, source: Fixture.watch)
        #expect(plain.duration == 1800, "no duration given means the whole interval")
    }

    @Test func endBeforeStartIsATypedError() {
        #expect(throws: ValidationError.endBeforeStart(.workout, start: Self.end, end: Self.start)) {
            try HealthWorkout(activityType: .running, start: Self.end, end: Self.start, source: Fixture.watch)
        }
    }

    @Test func aNegativeOrNonFiniteDurationIsATypedError() {
        #expect(throws: ValidationError.negativeValue(.workout, field: "duration", value: -1)) {
            try HealthWorkout(
                activityType: .running, start: Self.start, end: Self.end, duration: -1, source: Fixture.watch)
        }
        #expect(throws: ValidationError.self) {
            try HealthWorkout(
                activityType: .running, start: Self.start, end: Self.end, duration: .nan, source: Fixture.watch)
        }
    }

    @Test func aTotalInAUnitNotOfItsQuantityIsATypedError() throws {
        let kcal = try Fixture.quantity(300, "kcal")
        #expect(
            throws: ValidationError.incompatibleUnit(
                .workout, field: "totalDistance", unit: kcal.unit, expected: .meter())
        ) {
            try HealthWorkout(
                activityType: .running, start: Self.start, end: Self.end, totalDistance: kcal, source: Fixture.watch)
        }
        #expect(throws: ValidationError.negativeValue(.workout, field: "totalFlightsClimbed", value: -2)) {
            try HealthWorkout(
                activityType: .stairClimbing, start: Self.start, end: Self.end,
                totalFlightsClimbed: try Fixture.quantity(-2, "count"), source: Fixture.watch)
        }
    }

    @Test func anEventOutsideTheWorkoutIsATypedError() {
        let late = HealthWorkout.Event(
            type: .marker, start: Self.end.addingTimeInterval(1), end: Self.end.addingTimeInterval(1))
        #expect(
            throws: ValidationError.workoutIntervalOutOfRange(
                field: "events[0]", start: late.startDate, end: late.endDate)
        ) {
            try HealthWorkout(
                activityType: .running, start: Self.start, end: Self.end, events: [late], source: Fixture.watch)
        }
    }

    @Test func anActivityOutsideTheWorkoutOrAnActivityEventOutsideItsActivityIsATypedError() {
        let early = HealthWorkout.Activity(
            activityType: .running, start: Self.start.addingTimeInterval(-60), end: Self.end)
        #expect(throws: ValidationError.self) {
            try HealthWorkout(
                activityType: .running, start: Self.start, end: Self.end, activities: [early], source: Fixture.watch)
        }
        let half = Self.start.addingTimeInterval(900)
        let leg = HealthWorkout.Activity(
            activityType: .swimming, start: Self.start, end: half,
            events: [
                HealthWorkout.Event(type: .lap, start: half.addingTimeInterval(10), end: half.addingTimeInterval(10))
            ])
        #expect(
            throws: ValidationError.workoutIntervalOutOfRange(
                field: "activities[0].events[0]", start: half.addingTimeInterval(10), end: half.addingTimeInterval(10))
        ) {
            try HealthWorkout(
                activityType: .swimBikeRun, start: Self.start, end: Self.end, activities: [leg], source: Fixture.watch)
        }
    }

    @Test func statisticsMustBeForAQuantityTypeInItsUnitsOncePerType() throws {
        let sleep = HealthWorkout.Statistics(type: .sleepAnalysis, start: Self.start, end: Self.end)
        #expect(throws: ValidationError.wrongKind(.sleepAnalysis, expected: .quantity)) {
            try HealthWorkout(
                activityType: .running, start: Self.start, end: Self.end, statistics: [sleep], source: Fixture.watch)
        }
        let wrongUnit = HealthWorkout.Statistics(
            type: .heartRate, start: Self.start, end: Self.end, average: try Fixture.quantity(3, "km"))
        #expect(throws: ValidationError.self) {
            try HealthWorkout(
                activityType: .running, start: Self.start, end: Self.end, statistics: [wrongUnit],
                source: Fixture.watch)
        }
        let energy = HealthWorkout.Statistics(
            type: .activeEnergyBurned, start: Self.start, end: Self.end, sum: try Fixture.quantity(1, "kcal"))
        #expect(throws: ValidationError.duplicateWorkoutStatistics(field: "statistics", type: .activeEnergyBurned)) {
            try HealthWorkout(
                activityType: .running, start: Self.start, end: Self.end, statistics: [energy, energy],
                source: Fixture.watch)
        }
    }

    @Test func jsonRoundTripGivesTheSameWorkoutAsASample() throws {
        let sample = HealthSample.workout(try Self.run())
        let data = try Fixture.encoder().encode(sample)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"workout\""))
        #expect(try JSONDecoder().decode(HealthSample.self, from: data) == sample)
    }

    @Test func decodingAWorkoutThatBreaksARuleFails() throws {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Fixture.encoder().encode(try Self.run())) as? [String: Any])
        object["duration"] = -5
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HealthWorkout.self, from: data) }
    }
}
