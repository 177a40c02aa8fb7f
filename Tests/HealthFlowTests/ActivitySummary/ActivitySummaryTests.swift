import Foundation
import HealthFlow
import Testing

struct ActivitySummaryTests {
    static let calendar = StatisticsCollectionTests.calendar("Europe/Berlin")

    static func day(_ year: Int, _ month: Int, _ day: Int, calendar: Calendar? = Self.calendar) -> DateComponents {
        DateComponents(calendar: calendar, year: year, month: month, day: day)
    }

    static func kcal(_ value: Double) -> HealthQuantity { HealthQuantity(unit: .kilocalorie(), doubleValue: value) }

    static func summary(_ day: DateComponents, energy: Double = 300) throws -> ActivitySummary {
        try ActivitySummary(dateComponents: day, activeEnergyBurned: kcal(energy), activeEnergyBurnedGoal: kcal(500))
    }

    @Test func makesASummaryWithItsDayAndDefaults() throws {
        let summary = try Self.summary(Self.day(2024, 3, 1))
        #expect(summary.dateString == "2024-03-01")
        #expect(summary.dateComponents == Self.day(2024, 3, 1))
        #expect(summary.activityMoveMode == .activeEnergy)
        #expect(summary.isPaused == false)
        #expect(try summary.standHoursGoal.doubleValue(for: .count()) == 12)
        #expect(summary.dateInterval.duration == 86_400)
        #expect(Self.calendar.component(.hour, from: summary.dateInterval.start) == 0)
    }

    @Test func dropsComponentsOtherThanTheDay() throws {
        var components = Self.day(2024, 3, 1)
        components.hour = 13
        #expect(try Self.summary(components).dateComponents == Self.day(2024, 3, 1))
    }

    @Test func theDayOfTheSpringChangeLastsTwentyThreeHours() throws {
        #expect(try Self.summary(Self.day(2024, 3, 31)).dateInterval.duration == 23 * 3600)
    }

    static let invalidDays: [(DateComponents, String)] = [
        (day(2024, 3, 1, calendar: nil), "a calendar is required"),
        (DateComponents(calendar: calendar, year: 2024, month: 3), "year, month and day are required"),
        (day(2024, 2, 30), "no such day in the gregorian calendar"),
        (day(2024, 13, 1), "no such day in the gregorian calendar"),
    ]

    @Test(arguments: invalidDays)
    func rejectsAnInvalidDay(components: DateComponents, reason: String) {
        #expect(throws: ActivitySummaryError.invalidDateComponents(components, reason: reason)) {
            try Self.summary(components)
        }
    }

    @Test func rejectsAnEnergyInMinutes() {
        #expect(
            throws: ActivitySummaryError.incompatibleUnit(
                field: "activeEnergyBurned", unit: .minute(), expected: .kilocalorie())
        ) {
            try ActivitySummary(
                dateComponents: Self.day(2024, 3, 1),
                activeEnergyBurned: HealthQuantity(unit: .minute(), doubleValue: 1),
                activeEnergyBurnedGoal: Self.kcal(500))
        }
    }

    @Test func rejectsNegativeAndNonFiniteValues() {
        #expect(throws: ActivitySummaryError.invalidValue(field: "appleStandHours", value: -1)) {
            try ActivitySummary(
                dateComponents: Self.day(2024, 3, 1), activeEnergyBurned: Self.kcal(1),
                activeEnergyBurnedGoal: Self.kcal(1),
                appleStandHours: HealthQuantity(unit: .count(), doubleValue: -1))
        }
        #expect(throws: ActivitySummaryError.self) {
            try ActivitySummary(
                dateComponents: Self.day(2024, 3, 1), activeEnergyBurned: Self.kcal(.nan),
                activeEnergyBurnedGoal: Self.kcal(1))
        }
        #expect(throws: ActivitySummaryError.invalidValue(field: "standHoursGoal", value: -2)) {
            try ActivitySummaryGoals(standHours: -2)
        }
    }

    @Test func acceptsCompatibleUnits() throws {
        let summary = try ActivitySummary(
            dateComponents: Self.day(2024, 3, 1),
            activeEnergyBurned: HealthQuantity(unit: .jouleUnit(with: .kilo), doubleValue: 4184),
            activeEnergyBurnedGoal: Self.kcal(500), appleExerciseTime: HealthQuantity(unit: .hour(), doubleValue: 0.5))
        #expect(close(try summary.activeEnergyBurned.doubleValue(for: .kilocalorie()), 1000))
        #expect(close(try summary.appleExerciseTime.doubleValue(for: .minute()), 30))
    }

    @Test func roundTripsThroughJSONWithItsDayAsText() throws {
        let summary = try ActivitySummary(
            dateComponents: Self.day(2024, 3, 1), activeEnergyBurned: Self.kcal(432.5),
            activeEnergyBurnedGoal: Self.kcal(500),
            appleMoveTime: HealthQuantity(unit: .minute(), doubleValue: 41), activityMoveMode: .appleMoveTime,
            isPaused: true)
        let data = try Fixture.encoder().encode(summary)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains(#""date":"2024-03-01""#))
        #expect(try JSONDecoder().decode(ActivitySummary.self, from: data) == summary)
    }

    @Test func theMoveModeEncodesAsHealthKitsRawValueAndDecodesItsCaseNameToo() throws {
        let summary = try ActivitySummary(
            dateComponents: Self.day(2024, 3, 1), activeEnergyBurned: Self.kcal(432.5),
            activeEnergyBurnedGoal: Self.kcal(500), activityMoveMode: .appleMoveTime)
        let text = try #require(String(data: try Fixture.encoder().encode(summary), encoding: .utf8))
        #expect(text.contains(#""activityMoveMode":2"#))
        let named = text.replacingOccurrences(
            of: #""activityMoveMode":2"#, with: #""activityMoveMode":"appleMoveTime""#)
        #expect(try JSONDecoder().decode(ActivitySummary.self, from: Data(named.utf8)) == summary)
        let goals = try JSONDecoder().decode(
            ActivitySummaryGoals.self,
            from: Data(
                #"{"activeEnergyBurned":500,"appleMoveTime":30,"exerciseTime":30,"standHours":12,"moveMode":"appleMoveTime"}"#
                    .utf8))
        #expect(goals.moveMode == .appleMoveTime)
        let unknown = text.replacingOccurrences(of: #""activityMoveMode":2"#, with: #""activityMoveMode":"steps""#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ActivitySummary.self, from: Data(unknown.utf8)) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                ActivitySummary.self,
                from: Data(text.replacingOccurrences(of: #""activityMoveMode":2"#, with: #""activityMoveMode":7"#).utf8)
            )
        }
    }

    @Test func decodingAnImpossibleDayFails() throws {
        let data = try Fixture.encoder().encode(try Self.summary(Self.day(2024, 2, 28)))
        let text = try #require(String(data: data, encoding: .utf8)).replacingOccurrences(
            of: "2024-02-28", with: "2024-02-30")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ActivitySummary.self, from: Data(text.utf8)) }
    }

    @Test func predicateIncludesBothEndsAndSortsAscending() throws {
        let summaries = try [5, 1, 3, 2, 4, 6].map { try Self.summary(Self.day(2024, 3, $0)) }
        let predicate = try ActivitySummaryPredicate(start: Self.day(2024, 3, 2), end: Self.day(2024, 3, 4))
        #expect(predicate.filter(summaries).map(\.dateString) == ["2024-03-02", "2024-03-03", "2024-03-04"])
        let single = try ActivitySummaryPredicate(day: Self.day(2024, 3, 6))
        #expect(single.filter(summaries).map(\.dateString) == ["2024-03-06"])
    }

    @Test func predicateWorksAcrossYearEnds() throws {
        let summaries = try [(2023, 12, 31), (2024, 1, 1), (2024, 1, 2)].map {
            try Self.summary(Self.day($0.0, $0.1, $0.2))
        }
        let predicate = try ActivitySummaryPredicate(start: Self.day(2023, 12, 31), end: Self.day(2024, 1, 1))
        #expect(predicate.filter(summaries.reversed()).map(\.dateString) == ["2023-12-31", "2024-01-01"])
    }

    @Test func predicateRejectsAnEndBeforeItsStart() {
        #expect(throws: ActivitySummaryError.invalidDayRange(start: Self.day(2024, 3, 2), end: Self.day(2024, 3, 1))) {
            try ActivitySummaryPredicate(start: Self.day(2024, 3, 2), end: Self.day(2024, 3, 1))
        }
        #expect(
            throws: ActivitySummaryError.invalidDateComponents(
                Self.day(2024, 3, 1, calendar: nil), reason: "a calendar is required")
        ) {
            try ActivitySummaryPredicate(day: Self.day(2024, 3, 1, calendar: nil))
        }
    }
}
