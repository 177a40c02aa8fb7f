/// The sources of a type's statistics records, numbered in the order first seen: a record names its source by
/// that number (``StatisticsRecord/source``).
struct StatisticsSources: Sendable {
    /// Indexed by a record's source number; never shrinks.
    private(set) var all: [HealthSource] = []
    private var numbers: [HealthSource: Int] = [:]

    /// The number of `source`, added when new. `last`, the number the previous record named, is checked first:
    /// samples of one type mostly come from few sources, in runs.
    mutating func number(of source: HealthSource, last: Int?) -> Int {
        if let last, all[last] == source { return last }
        if let number = numbers[source] { return number }
        all.append(source)
        numbers[source] = all.count - 1
        return all.count - 1
    }
}
