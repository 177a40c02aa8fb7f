import Foundation

/// Statistics for a row of contiguous, equal calendar intervals — the counterpart of
/// `HKStatisticsCollection`, computed from samples without a store.
///
/// An anchor date fixes the start of one interval; the others follow it and precede it by whole
/// multiples of the interval components (an hour, a day, a week, a month …) in the given calendar, so
/// daily intervals stay midnight-to-midnight across daylight-saving changes. Intervals are computed
/// for `range`: the first one contains `range.start`, the last one contains the last instant before
/// `range.end`. Each interval is a window for `HealthStatistics` (see its rules: straddling cumulative
/// samples are split in proportion to time); a statistics value's `startDate`/`endDate` are its
/// interval's bounds.
///
/// - Complexity: Building sorts the samples once and sweeps them with the intervals: O(n log n + m + s)
///   for n samples, m intervals and s sample–interval overlaps (s = n when no sample spans a boundary).
public struct StatisticsCollection: Sendable {
    /// The most intervals a collection computes (a year of minutes is 525,600).
    public static let maximumIntervalCount = 1_000_000

    /// The quantity type.
    public let quantityType: HealthObjectType
    /// What was computed.
    public let options: StatisticsOptions
    /// The start of one interval.
    public let anchorDate: Date
    /// The length of each interval in calendar components.
    public let intervalComponents: DateComponents
    /// The calendar the intervals are counted in.
    public let calendar: Calendar
    /// The span whose intervals were computed.
    public let range: DateInterval

    private let grid: IntervalGrid
    private let unit: HealthUnit
    /// Grid indices of the intervals with data, ascending.
    private let indices: [Int]
    /// The statistics of those intervals, in the same order.
    private let values: [HealthStatistics]

    /// Computes statistics for every interval of `range`.
    ///
    /// - Parameters:
    ///   - type: A quantity type; every sample must be of it.
    ///   - samples: The samples, in any order; those outside the computed intervals are ignored.
    ///   - options: What to compute; checked with `StatisticsOptions.validate(for:)`.
    ///   - anchorDate: The start of one interval; it need not lie in `range`.
    ///   - intervalComponents: The interval length: non-negative year, month, weekOfYear, weekOfMonth,
    ///     day, hour, minute, second or nanosecond components, at least one positive.
    ///   - calendar: The calendar (and time zone) the intervals are counted in.
    ///   - range: The span to compute; an empty range computes no interval.
    /// - Throws: `StatisticsError` — the option and sample errors of `HealthStatistics.compute`, and
    ///   `.invalidIntervalComponents`, `.invalidDateRange`, `.calendarArithmeticFailed`, `.tooManyIntervals`.
    public init(
        _ type: HealthObjectType, samples: [HealthQuantitySample], options: StatisticsOptions, anchorDate: Date,
        intervalComponents: DateComponents, calendar: Calendar, range: DateInterval
    ) throws(StatisticsError) {
        try self.init(
            PreparedStatisticsInput(type: type, samples: samples, options: options), anchorDate: anchorDate,
            intervalComponents: intervalComponents, calendar: calendar, range: range)
    }

    /// Computes statistics for every interval of `range` from prepared records — the public initializer's
    /// work once its samples are records.
    /// - Throws: As the public initializer, but for the samples' errors (the input was made without them).
    init(
        _ input: PreparedStatisticsInput, anchorDate: Date, intervalComponents: DateComponents, calendar: Calendar,
        range: DateInterval
    ) throws(StatisticsError) {
        try self.init(
            input, anchorDate: anchorDate, intervalComponents: intervalComponents, calendar: calendar, range: range
        ) { bounds, emit in
            Self.sweep(input, bounds: bounds, emit: emit)
        }
    }

    /// Computes statistics for every interval of `range` from the samples at `positions` of `columns` — the
    /// same statistics, value for value, as the public initializer over those samples.
    ///
    /// - Throws: As the public initializer (the samples were checked when they entered the columns).
    /// - Complexity: O(m + k + c log m) for m positions, k intervals and c intervals with data, plus, per interval
    ///   that a sample from an earlier one reaches into, the records of that interval copied once.
    init(
        _ type: HealthObjectType, columns: SampleColumns, positions: Range<Int>, options: StatisticsOptions,
        anchorDate: Date, intervalComponents: DateComponents, calendar: Calendar, range: DateInterval
    ) throws(StatisticsError) {
        let input = try PreparedStatisticsInput(type: type, options: options, sources: columns.sources)
        try self.init(
            input, anchorDate: anchorDate, intervalComponents: intervalComponents, calendar: calendar, range: range
        ) { bounds, emit in
            columns.withBuffers { buffers in
                Self.sweep(input, columns: buffers, positions: positions, bounds: bounds, emit: emit)
            }
        }
    }

    /// The intervals of `range`, their bounds computed once, handed to `sweep`, which reports each interval with
    /// data by its position among the bounds.
    private init(
        _ input: PreparedStatisticsInput, anchorDate: Date, intervalComponents: DateComponents, calendar: Calendar,
        range: DateInterval, sweep: (_ bounds: [Date], _ emit: (Int, HealthStatistics) -> Void) -> Void
    ) throws(StatisticsError) {
        let grid = try IntervalGrid(anchor: anchorDate, components: intervalComponents, calendar: calendar)
        guard range.start.timeIntervalSinceReferenceDate.isFinite, range.end.timeIntervalSinceReferenceDate.isFinite
        else { throw .invalidDateRange(start: range.start, end: range.end) }

        var indices: [Int] = []
        var values: [HealthStatistics] = []
        if range.end > range.start {
            let first = try grid.index(containing: range.start)
            var bounds = [try grid.start(of: first)]
            var last = bounds[0]
            while last < range.end {
                guard bounds.count <= Self.maximumIntervalCount else {
                    throw .tooManyIntervals(limit: Self.maximumIntervalCount)
                }
                last = try grid.start(of: first + bounds.count)
                bounds.append(last)
            }
            sweep(bounds) { position, statistics in
                indices.append(first + position)
                values.append(statistics)
            }
        }
        self.quantityType = input.type
        self.options = input.options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.calendar = calendar
        self.range = range
        self.grid = grid
        self.unit = input.unit
        self.indices = indices
        self.values = values
    }

    /// A collection of statistics computed elsewhere (a bridge store passes HealthKit's results through):
    /// `statistics` are the intervals with data, each placed on the grid by its start date.
    package init(
        _ type: HealthObjectType, options: StatisticsOptions, anchorDate: Date, intervalComponents: DateComponents,
        calendar: Calendar, range: DateInterval, statistics: [HealthStatistics]
    ) throws(StatisticsError) {
        let grid = try IntervalGrid(anchor: anchorDate, components: intervalComponents, calendar: calendar)
        var indices: [Int] = []
        for value in statistics { indices.append(try grid.index(containing: value.startDate)) }
        self.quantityType = type
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.calendar = calendar
        self.range = range
        self.grid = grid
        self.unit = type.canonicalUnit ?? HealthUnit(factors: [:])
        self.indices = indices
        self.values = statistics
    }

    /// Sorted records and interval bounds, swept together: each record enters the active list once, in
    /// order, and leaves after the last interval it overlaps; runs of empty intervals are skipped by binary
    /// search.
    private static func sweep(
        _ input: PreparedStatisticsInput, bounds: [Date], emit: (Int, HealthStatistics) -> Void
    ) {
        let edges = bounds.map(\.timeIntervalSinceReferenceDate)
        let records = input.records
        var active: [StatisticsRecord] = []
        var next = 0
        var position = 0
        while position < edges.count - 1 {
            if active.isEmpty {
                guard next < records.count else { return }
                guard let jump = interval(holding: records[next].start, from: position, edges: edges) else { return }
                position = jump
            }
            let lower = edges[position]
            let upper = edges[position + 1]
            while next < records.count && records[next].start < upper {
                active.append(records[next])
                next += 1
            }
            let matched = active.filter { $0.matches(lower, upper) }
            if !matched.isEmpty {
                let bounds = DateInterval(start: bounds[position], end: bounds[position + 1])
                if let statistics = input.statistics(of: matched, window: (lower, upper), bounds: bounds) {
                    emit(position, statistics)
                }
            }
            active.removeAll { $0.isInstantaneous || $0.end <= upper }
            position += 1
        }
    }

    /// ``sweep(_:bounds:emit:)`` over columns, with the same results: the records starting in an interval are a
    /// contiguous run, aggregated where they lie; only an interval that records from earlier intervals reach
    /// into (samples crossing a boundary) is aggregated over a copy — those records, then the run.
    private static func sweep(
        _ input: PreparedStatisticsInput, columns: ColumnBuffers, positions: Range<Int>, bounds: [Date],
        emit: (Int, HealthStatistics) -> Void
    ) {
        let edges = bounds.map(\.timeIntervalSinceReferenceDate)
        let starts = columns.starts
        let ends = columns.ends
        let end = positions.upperBound
        // Positions of records that started before the current interval and may reach into it, in order.
        var carried: [Int] = []
        var next = positions.lowerBound
        var position = 0
        while position < edges.count - 1 {
            if carried.isEmpty {
                guard next < end else { return }
                guard let jump = interval(holding: starts[next], from: position, edges: edges) else { return }
                position = jump
            }
            let lower = edges[position]
            let upper = edges[position + 1]
            // Records starting before the first interval join the carried ones.
            while next < end && starts[next] < lower {
                carried.append(next)
                next += 1
            }
            let runStart = next
            var leaving: [Int] = []
            while next < end && starts[next] < upper {
                if ends[next] > upper { leaving.append(next) }
                next += 1
            }
            let run = columns.run(runStart..<next)
            let reaching = carried.filter { ColumnRecord(buffers: columns, position: $0).matches(lower, upper) }
            let window = (lower: lower, upper: upper)
            let interval = DateInterval(start: bounds[position], end: bounds[position + 1])
            let statistics: HealthStatistics?
            if reaching.isEmpty {
                statistics = input.statistics(of: run, window: window, bounds: interval)
            } else {
                var matched = reaching.map { ColumnRecord(buffers: columns, position: $0).record }
                matched.reserveCapacity(matched.count + run.count)
                matched.append(contentsOf: run.lazy.map { $0.record })
                statistics = input.statistics(of: matched, window: window, bounds: interval)
            }
            if let statistics { emit(position, statistics) }
            carried.removeAll { ends[$0] <= upper }
            carried.append(contentsOf: leaving)
            position += 1
        }
    }

    /// Where a sweep with no record open goes for a record starting at `start`: the interval holding it, or
    /// `position` when that is before it (the first interval); `nil` past the last interval.
    private static func interval(holding start: Double, from position: Int, edges: [Double]) -> Int? {
        guard start >= edges[position + 1] else { return position }
        var low = position + 1
        var high = edges.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if edges[middle] <= start { low = middle } else { high = middle - 1 }
        }
        return low < edges.count - 1 ? low : nil
    }

    /// The statistics of the intervals with data, ascending by start.
    ///
    /// - Returns: One value per interval that matched at least one sample.
    public func statistics() -> [HealthStatistics] { values }

    /// The statistics of the interval containing `date`, or `nil` when that interval has no data (or lies
    /// outside the computed range).
    ///
    /// - Parameter date: Any date.
    /// - Returns: The interval's statistics, or `nil`.
    public func statistics(for date: Date) -> HealthStatistics? {
        guard let index = try? grid.index(containing: date), let position = position(of: index) else { return nil }
        return values[position]
    }

    /// Every source with data in any interval, sorted by bundle identifier then name; empty unless the
    /// options held `separateBySource`.
    ///
    /// - Returns: The sources.
    public func sources() -> [HealthSource] {
        Set(values.flatMap(\.sources)).sorted { ($0.bundleIdentifier, $0.name) < ($1.bundleIdentifier, $1.name) }
    }

    /// Calls `body` with every interval from the one containing `start` through the one containing `end`,
    /// in order, including intervals without data (their statistics are empty: `isEmpty`, every value
    /// `nil`). Intervals outside the computed range are always empty. Set `stop` to `true` to end early.
    ///
    /// - Parameters:
    ///   - start: A date in the first interval.
    ///   - end: A date in the last interval; before `start`, nothing is enumerated.
    ///   - body: Called once per interval with its statistics and a stop flag.
    /// - Throws: `StatisticsError.invalidDateRange` or `.calendarArithmeticFailed` for dates the calendar
    ///   cannot handle.
    /// - Complexity: O(k + log m) for k enumerated intervals and m intervals with data.
    public func enumerateStatistics(
        from start: Date, to end: Date, _ body: (HealthStatistics, inout Bool) -> Void
    ) throws(StatisticsError) {
        guard end >= start else { return }
        let first = try grid.index(containing: start)
        let last = try grid.index(containing: end)
        guard last >= first else { return }
        var cursor = lowerBound(of: first)
        var lower = try grid.start(of: first)
        var stop = false
        for index in first...last {
            let upper = try grid.start(of: index + 1)
            if cursor < indices.count && indices[cursor] == index {
                body(values[cursor], &stop)
                cursor += 1
            } else {
                body(.empty(quantityType, unit: unit, interval: DateInterval(start: lower, end: upper)), &stop)
            }
            if stop { return }
            lower = upper
        }
    }

    /// Every interval from the one containing `start` through the one containing `end`, empty ones
    /// included (see `enumerateStatistics(from:to:_:)`).
    ///
    /// - Parameters:
    ///   - start: A date in the first interval.
    ///   - end: A date in the last interval.
    /// - Returns: One value per interval, ascending.
    /// - Throws: As `enumerateStatistics(from:to:_:)`, and `.tooManyIntervals` when the span holds more than
    ///   ``maximumIntervalCount`` intervals (enumerate those instead: `enumerateStatistics` holds none of them).
    public func statistics(from start: Date, to end: Date) throws(StatisticsError) -> [HealthStatistics] {
        if end >= start {
            let count = try grid.index(containing: end).subtractingReportingOverflow(grid.index(containing: start))
            guard !count.overflow, count.partialValue < Self.maximumIntervalCount else {
                throw .tooManyIntervals(limit: Self.maximumIntervalCount)
            }
        }
        var result: [HealthStatistics] = []
        try enumerateStatistics(from: start, to: end) { statistics, _ in result.append(statistics) }
        return result
    }

    /// The first position in `indices` whose index is at least `index`.
    private func lowerBound(of index: Int) -> Int {
        var low = 0
        var high = indices.count
        while low < high {
            let middle = (low + high) / 2
            if indices[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func position(of index: Int) -> Int? {
        let position = lowerBound(of: index)
        return position < indices.count && indices[position] == index ? position : nil
    }
}
