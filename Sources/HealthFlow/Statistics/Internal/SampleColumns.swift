import Foundation

/// The quantity samples of one type as columns — start, end, value (in the type's canonical unit), source, UUID
/// bits — each a contiguous array, kept in ``StatisticsRecord/precedes(_:_:)`` order (start, end, UUID): the
/// order the general engine sorts its records in, so that an interval's records are a contiguous run and the
/// arithmetic over them adds in the same order.
///
/// Only what statistics need is kept; the samples themselves stay in the store's index.
struct SampleColumns: Sendable {
    let type: HealthObjectType
    /// The type's canonical unit: every value is in it.
    let unit: HealthUnit
    private(set) var starts: [Double] = []
    private(set) var ends: [Double] = []
    private(set) var values: [Double] = []
    /// Indices into ``sources``.
    private(set) var sourceIndices: [Int] = []
    private(set) var idHighs: [UInt64] = []
    private(set) var idLows: [UInt64] = []
    /// Every source ever inserted (never shrinks), in the order first seen.
    var sources: [HealthSource] { sourceTable.all }
    private var sourceTable = StatisticsSources()
    /// How many of the samples are not the store's app's own (see ``insert(_:isOwned:)``).
    private(set) var foreignCount = 0
    /// The longest `end - start` of any sample ever inserted (never shrinks).
    private(set) var longestDuration = 0.0
    /// `false` once a sample's value could not be converted to ``unit`` (validated samples always can): the
    /// columns then no longer hold every sample, and only the general engine may answer.
    private(set) var isComplete = true
    /// Reads each sample's value in ``unit``.
    private var reader: CanonicalValueReader

    /// Empty columns for a quantity type; `nil` for any other type.
    init?(type: HealthObjectType) {
        guard type.kind == .quantity, type.aggregationStyle != nil, let unit = type.canonicalUnit else { return nil }
        self.type = type
        self.unit = unit
        reader = CanonicalValueReader(unit: unit)
    }

    var count: Int { starts.count }

    /// The sample at `position` as a record of its own.
    func record(at position: Int) -> StatisticsRecord {
        StatisticsRecord(
            start: starts[position], end: ends[position], value: values[position], source: sourceIndices[position],
            idHigh: idHighs[position], idLow: idLows[position])
    }

    /// Adds a sample of ``type``; `isOwned` tells whether the store's app owns it (see ``foreignCount``).
    /// - Complexity: Amortized O(1) when the sample sorts after every sample held (data arriving in time
    ///   order); O(log n + n) otherwise (the search plus the shift).
    mutating func insert(_ sample: HealthQuantitySample, isOwned: Bool) {
        let value: Double
        do {
            value = try reader.value(of: sample.quantity)
        } catch {
            isComplete = false
            return
        }
        let key = Self.key(of: sample)
        let source = sourceTable.number(of: sample.source, last: sourceIndices.last)
        longestDuration = max(longestDuration, key.end - key.start)
        if !isOwned { foreignCount += 1 }
        if starts.isEmpty || StatisticsRecord.precedes(record(at: count - 1), key) {
            starts.append(key.start)
            ends.append(key.end)
            values.append(value)
            sourceIndices.append(source)
            idHighs.append(key.idHigh)
            idLows.append(key.idLow)
        } else {
            let slot = firstPosition { !StatisticsRecord.precedes($0, key) }
            starts.insert(key.start, at: slot)
            ends.insert(key.end, at: slot)
            values.insert(value, at: slot)
            sourceIndices.insert(source, at: slot)
            idHighs.insert(key.idHigh, at: slot)
            idLows.insert(key.idLow, at: slot)
        }
    }

    /// Removes a sample inserted before (nothing when it is not held); `isOwned` as it was inserted.
    /// - Complexity: O(log n + n) (the search plus the shift).
    mutating func remove(_ sample: HealthQuantitySample, isOwned: Bool) {
        let key = Self.key(of: sample)
        let slot = firstPosition { !StatisticsRecord.precedes($0, key) }
        guard slot < count, starts[slot] == key.start, ends[slot] == key.end, idHighs[slot] == key.idHigh,
            idLows[slot] == key.idLow
        else { return }
        if !isOwned { foreignCount -= 1 }
        starts.remove(at: slot)
        ends.remove(at: slot)
        values.remove(at: slot)
        sourceIndices.remove(at: slot)
        idHighs.remove(at: slot)
        idLows.remove(at: slot)
    }

    /// The first position whose start is at least `start`.
    /// - Complexity: O(log n).
    func firstPosition(startingAtOrAfter start: Double) -> Int {
        starts.partitioningIndex { $0 >= start }
    }

    /// The positions in `range` whose dates satisfy `matches`, as a range of these columns when they are
    /// contiguous there (the usual case: a date range only excludes samples near its edges), or else as the
    /// matching samples copied into new columns.
    /// - Complexity: O(m) for the m positions of `range`.
    func selecting(_ range: Range<Int>, where matches: (_ start: Double, _ end: Double) -> Bool) -> (
        columns: SampleColumns, positions: Range<Int>
    ) {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper && !matches(starts[lower], ends[lower]) { lower += 1 }
        while upper > lower && !matches(starts[upper - 1], ends[upper - 1]) { upper -= 1 }
        guard (lower..<upper).contains(where: { !matches(starts[$0], ends[$0]) }) else {
            return (self, lower..<upper)
        }
        var copy = self
        copy.starts = []
        copy.ends = []
        copy.values = []
        copy.sourceIndices = []
        copy.idHighs = []
        copy.idLows = []
        for position in lower..<upper where matches(starts[position], ends[position]) {
            copy.starts.append(starts[position])
            copy.ends.append(ends[position])
            copy.values.append(values[position])
            copy.sourceIndices.append(sourceIndices[position])
            copy.idHighs.append(idHighs[position])
            copy.idLows.append(idLows[position])
        }
        return (copy, 0..<copy.count)
    }

    /// The span the samples at `positions` occupy: the earliest start and the latest
    /// ``StatisticsRecord/coverageEnd(start:end:)``. `nil` when `positions` is empty.
    /// - Complexity: O(m) for m positions.
    func coverage(of positions: Range<Int>) -> (start: Date, end: Date)? {
        guard let first = positions.first else { return nil }
        var end = -Double.infinity
        for position in positions {
            end = max(end, StatisticsRecord.coverageEnd(start: starts[position], end: ends[position]))
        }
        return (Date(timeIntervalSinceReferenceDate: starts[first]), Date(timeIntervalSinceReferenceDate: end))
    }

    /// Calls `body` with the columns as buffers, valid only during the call.
    func withBuffers<Result>(_ body: (ColumnBuffers) -> Result) -> Result {
        starts.withUnsafeBufferPointer { starts in
            ends.withUnsafeBufferPointer { ends in
                values.withUnsafeBufferPointer { values in
                    sourceIndices.withUnsafeBufferPointer { sources in
                        idHighs.withUnsafeBufferPointer { idHighs in
                            idLows.withUnsafeBufferPointer { idLows in
                                body(
                                    ColumnBuffers(
                                        starts: starts, ends: ends, values: values, sources: sources,
                                        idHighs: idHighs, idLows: idLows))
                            }
                        }
                    }
                }
            }
        }
    }

    private static func key(of sample: HealthQuantitySample) -> StatisticsRecord {
        let (high, low) = StatisticsRecord.bits(of: sample.uuid)
        return StatisticsRecord(
            start: sample.startDate.timeIntervalSinceReferenceDate, end: sample.endDate.timeIntervalSinceReferenceDate,
            value: 0, source: 0, idHigh: high, idLow: low)
    }

    /// The first position whose record satisfies `isAtOrAfter`, false for a prefix of the columns and true
    /// for the rest.
    private func firstPosition(where isAtOrAfter: (StatisticsRecord) -> Bool) -> Int {
        (0..<count).partitioningIndex { isAtOrAfter(record(at: $0)) }
    }
}

/// ``SampleColumns`` as buffers, for the bucket loop: reading a field reads one column, without reference
/// counting or bounds checks in release builds. Valid only inside ``SampleColumns/withBuffers(_:)``.
struct ColumnBuffers {
    let starts: UnsafeBufferPointer<Double>
    let ends: UnsafeBufferPointer<Double>
    let values: UnsafeBufferPointer<Double>
    let sources: UnsafeBufferPointer<Int>
    let idHighs: UnsafeBufferPointer<UInt64>
    let idLows: UnsafeBufferPointer<UInt64>

    /// The records at `positions`, indexed from 0.
    func run(_ positions: Range<Int>) -> ColumnRun {
        ColumnRun(buffers: self, offset: positions.lowerBound, count: positions.count)
    }
}

/// One position of ``ColumnBuffers``: each field reads its own column.
struct ColumnRecord: StatisticsRecordFields {
    let buffers: ColumnBuffers
    let position: Int

    var start: Double { buffers.starts[position] }
    var end: Double { buffers.ends[position] }
    var value: Double { buffers.values[position] }
    var source: Int { buffers.sources[position] }
    var idHigh: UInt64 { buffers.idHighs[position] }
    var idLow: UInt64 { buffers.idLows[position] }
}

/// Consecutive positions of ``ColumnBuffers`` as a collection of records indexed from 0.
struct ColumnRun: RandomAccessCollection {
    let buffers: ColumnBuffers
    let offset: Int
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> ColumnRecord {
        ColumnRecord(buffers: buffers, position: offset + position)
    }
}
