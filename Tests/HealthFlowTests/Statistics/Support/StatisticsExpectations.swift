import Foundation
import HealthFlow
import Testing

/// Checks every value of `statistics` (overall, or one source's) against the oracle's.
func expectStatistics(
    _ statistics: HealthStatistics, equal expected: StatisticsOracle.Values, source: HealthSource? = nil,
    _ context: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let unit = try #require(statistics.quantityType.canonicalUnit)
    func read(_ quantity: HealthQuantity?, _ unit: HealthUnit) throws -> Double? {
        try quantity.map { try $0.doubleValue(for: unit) }
    }
    let sum = try read(source.map { statistics.sumQuantity(for: $0) } ?? statistics.sumQuantity(), unit)
    let average = try read(source.map { statistics.averageQuantity(for: $0) } ?? statistics.averageQuantity(), unit)
    let minimum = try read(source.map { statistics.minimumQuantity(for: $0) } ?? statistics.minimumQuantity(), unit)
    let maximum = try read(source.map { statistics.maximumQuantity(for: $0) } ?? statistics.maximumQuantity(), unit)
    let recent = try read(
        source.map { statistics.mostRecentQuantity(for: $0) } ?? statistics.mostRecentQuantity(), unit)
    let recentInterval =
        source.map { statistics.mostRecentQuantityDateInterval(for: $0) } ?? statistics.mostRecentQuantityDateInterval()
    let duration = try read(source.map { statistics.duration(for: $0) } ?? statistics.duration(), .second())
    let label = "\(context) source=\(source?.name ?? "all")"
    #expect(
        close(sum, expected.sum), "sum \(label): \(String(describing: sum)) vs \(String(describing: expected.sum))",
        sourceLocation: sourceLocation)
    #expect(
        close(average, expected.average),
        "average \(label): \(String(describing: average)) vs \(String(describing: expected.average))",
        sourceLocation: sourceLocation)
    #expect(minimum == expected.minimum, "minimum \(label)", sourceLocation: sourceLocation)
    #expect(maximum == expected.maximum, "maximum \(label)", sourceLocation: sourceLocation)
    #expect(recent == expected.mostRecent, "mostRecent \(label)", sourceLocation: sourceLocation)
    #expect(
        recentInterval == expected.mostRecentInterval, "mostRecent interval \(label)",
        sourceLocation: sourceLocation)
    #expect(close(duration, expected.duration), "duration \(label)", sourceLocation: sourceLocation)
}
