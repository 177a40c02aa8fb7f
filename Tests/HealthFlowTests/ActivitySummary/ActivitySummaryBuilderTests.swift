import Foundation
import HealthFlow
import Testing

struct ActivitySummaryBuilderTests {
    static let calendar = ActivitySummaryTests.calendar
    static func day(_ year: Int, _ month: Int, _ day: Int) -> DateComponents {
        ActivitySummaryTests.day(year, month, day)
    }

    /// A date in Berlin.
    static func at(_ day: Int, _ hour: Int, _ minute: Int = 0, month: Int = 3) throws -> Date {
        try #require(
            calendar.date(from: DateComponents(year: 2024, month: month, day: day, hour: hour, minute: minute)))
    }

    static func quantity(_ type: HealthObjectType, _ unit: HealthUnit, _ value: Double, _ start: Date, _ end: Date)
        throws
        -> HealthSample
    {
        .quantity(
            try HealthQuantitySample(
                type: type, quantity: HealthQuantity(unit: unit, doubleValue: value), start: start, end: end,
                source: Fixture.watch))
    }

    static func stand(_ value: AppleStandHourValue, _ start: Date) throws -> HealthSample {
        .category(
            try HealthCategorySample(value, start: start, end: start.addingTimeInterval(3600), source: Fixture.watch))
    }

    static func builder(_ goals: ActivitySummaryGoals? = nil) throws -> ActivitySummaryBuilder {
        ActivitySummaryBuilder(calendar: calendar, goals: try goals ?? ActivitySummaryGoals())
    }

    @Test func sumsEnergyAndExerciseSplittingSamplesAcrossMidnight() throws {
        let samples = [
            try Self.quantity(.activeEnergyBurned, .kilocalorie(), 100, try Self.at(1, 23, 30), try Self.at(2, 0, 30)),
            try Self.quantity(.activeEnergyBurned, .kilocalorie(), 40, try Self.at(2, 10), try Self.at(2, 10, 20)),
            try Self.quantity(.appleExerciseTime, .minute(), 20, try Self.at(2, 10), try Self.at(2, 10, 20)),
            try Self.quantity(.appleExerciseTime, .hour(), 0.5, try Self.at(3, 7), try Self.at(3, 7, 30)),
            try Self.quantity(.appleMoveTime, .minute(), 12, try Self.at(3, 7), try Self.at(3, 7, 12)),
        ]
        let predicate = try ActivitySummaryPredicate(start: Self.day(2024, 3, 1), end: Self.day(2024, 3, 3))
        let summaries = try Self.builder().summaries(from: samples, for: predicate)
        #expect(summaries.map(\.dateString) == ["2024-03-01", "2024-03-02", "2024-03-03"])
        #expect(try summaries.map { try $0.activeEnergyBurned.doubleValue(for: .kilocalorie()) } == [50, 90, 0])
        #expect(try summaries.map { try $0.appleExerciseTime.doubleValue(for: .minute()) } == [0, 20, 30])
        #expect(try summaries.map { try $0.appleMoveTime.doubleValue(for: .minute()) } == [0, 0, 12])
    }

    @Test func countsDistinctStoodHoursOnly() throws {
        let samples = [
            try Self.stand(.stood, try Self.at(2, 9)), try Self.stand(.stood, try Self.at(2, 9, 30)),  // same hour
            try Self.stand(.stood, try Self.at(2, 10)), try Self.stand(.idle, try Self.at(2, 11)),
            try Self.stand(.stood, try Self.at(2, 23, 59)), try Self.stand(.stood, try Self.at(3, 0, 1)),
        ]
        let predicate = try ActivitySummaryPredicate(start: Self.day(2024, 3, 2), end: Self.day(2024, 3, 3))
        let summaries = try Self.builder().summaries(from: samples, for: predicate)
        #expect(try summaries.map { try $0.appleStandHours.doubleValue(for: .count()) } == [3, 1])
    }

    @Test func standHoursOutsideTheRangeAreIgnored() throws {
        let samples = [try Self.stand(.stood, try Self.at(1, 12)), try Self.stand(.stood, try Self.at(4, 0, 0))]
        let summaries = try Self.builder().summaries(
            from: samples, for: try ActivitySummaryPredicate(start: Self.day(2024, 3, 2), end: Self.day(2024, 3, 3)))
        #expect(try summaries.map { try $0.appleStandHours.doubleValue(for: .count()) } == [0, 0])
    }

    @Test func writesTheGoalsIntoEverySummary() throws {
        let goals = try ActivitySummaryGoals(
            activeEnergyBurned: 420, appleMoveTime: 25, exerciseTime: 45, standHours: 10, moveMode: .appleMoveTime)
        let summaries = try Self.builder(goals).summaries(
            from: [], for: try ActivitySummaryPredicate(start: Self.day(2024, 3, 30), end: Self.day(2024, 4, 1)))
        #expect(summaries.count == 3)
        for summary in summaries {
            #expect(try summary.activeEnergyBurnedGoal.doubleValue(for: .kilocalorie()) == 420)
            #expect(try summary.appleMoveTimeGoal.doubleValue(for: .minute()) == 25)
            #expect(try summary.exerciseTimeGoal.doubleValue(for: .minute()) == 45)
            #expect(try summary.standHoursGoal.doubleValue(for: .count()) == 10)
            #expect(summary.activityMoveMode == .appleMoveTime)
        }
        #expect(summaries.map(\.dateInterval.duration) == [86_400, 23 * 3600, 86_400])
    }

    @Test func ignoresOtherSampleTypes() throws {
        let samples = [
            try Self.quantity(.stepCount, .count(), 1000, try Self.at(2, 9), try Self.at(2, 10)),
            .category(
                try HealthCategorySample(
                    SleepAnalysisValue.asleepCore, start: try Self.at(2, 1), end: try Self.at(2, 2),
                    source: Fixture.watch)),
        ]
        let summaries = try Self.builder().summaries(
            from: samples, for: try ActivitySummaryPredicate(day: Self.day(2024, 3, 2)))
        #expect(try summaries.first?.activeEnergyBurned.doubleValue(for: .kilocalorie()) == 0)
    }
}
