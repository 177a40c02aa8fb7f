import Foundation

/// Quantity samples of one type reduced, one at a time, to the ``StatisticsRecord``s the arithmetic reads (48
/// bytes each) and the sources they name: a store that reads its samples a block at a time hands each one here
/// and drops it, so a statistics query holds its records, not its samples.
///
/// The first sample that cannot become a record (another type, a unit of another dimension, a type that is
/// not a quantity type) is kept as ``problem``, and later samples are ignored: the prepared input throws it
/// (``PreparedStatisticsInput/init(_:options:)``).
struct StatisticsRecordGatherer: Sendable {
    let type: HealthObjectType
    /// In the order added, until ``sortRecords()``.
    private(set) var records: [StatisticsRecord] = []
    /// Indexed by `StatisticsRecord.source`, in the order first seen.
    var sources: [HealthSource] { sourceTable.all }
    private var sourceTable = StatisticsSources()
    /// The error of the first sample that could not become a record.
    private(set) var problem: StatisticsError?
    private var reader: CanonicalValueReader?
    private var earliestStart = Double.infinity
    private var latestCoverageEnd = -Double.infinity

    /// An empty gatherer for samples of `type`.
    init(type: HealthObjectType) {
        self.type = type
        reader = type.canonicalUnit.map(CanonicalValueReader.init(unit:))
    }

    /// A gatherer holding `samples`.
    init(type: HealthObjectType, samples: some Sequence<HealthQuantitySample>) {
        self.init(type: type)
        for sample in samples { add(sample) }
    }

    /// The span every sample added occupies (those that could not become records included): the earliest start,
    /// and the latest end — just past the instant for an instantaneous sample, so that a half-open window over
    /// the span still holds it. `nil` before any sample.
    var coverage: (start: Date, end: Date)? {
        guard earliestStart <= latestCoverageEnd else { return nil }
        return (
            Date(timeIntervalSinceReferenceDate: earliestStart), Date(timeIntervalSinceReferenceDate: latestCoverageEnd)
        )
    }

    /// Adds `sample` as a record (see ``problem`` for a sample that cannot be one).
    /// - Complexity: Amortized O(1).
    mutating func add(_ sample: HealthQuantitySample) {
        let start = sample.startDate.timeIntervalSinceReferenceDate
        let end = sample.endDate.timeIntervalSinceReferenceDate
        earliestStart = min(earliestStart, start)
        latestCoverageEnd = max(latestCoverageEnd, StatisticsRecord.coverageEnd(start: start, end: end))
        guard problem == nil else { return }
        guard sample.type == type else {
            problem = .sampleTypeMismatch(expected: type, found: sample.type, uuid: sample.uuid)
            return
        }
        let value: Double
        do throws(UnitError) {
            guard let read = try reader?.value(of: sample.quantity) else {
                problem = .notAQuantityType(type)
                return
            }
            value = read
        } catch {
            problem = .unitConversion(type, error)
            return
        }
        let (high, low) = StatisticsRecord.bits(of: sample.uuid)
        let source = sourceTable.number(of: sample.source, last: records.last?.source)
        records.append(
            StatisticsRecord(start: start, end: end, value: value, source: source, idHigh: high, idLow: low))
    }

    /// Puts the records in ``StatisticsRecord/precedes(_:_:)`` order, in place.
    /// - Complexity: O(n log n) for n records; O(n) when they are in order already.
    mutating func sortRecords() {
        guard !StatisticsRecord.areInOrder(records) else { return }
        records.sort(by: StatisticsRecord.precedes)
    }
}
