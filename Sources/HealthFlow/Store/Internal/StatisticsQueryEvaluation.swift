import Foundation

/// The store-independent part of running statistics queries: checking a request, reading the window or
/// range off the predicate, calling the pure engines, and turning their errors into ``HealthStoreError``s.
/// Stores gather the visible samples under their lock and call these outside it.
package enum StatisticsQueryEvaluation {
    /// The error that prevents running a statistics query over `type` with `options`, if any: options that do
    /// not suit the type, and — for collections — interval components the calendar cannot step by.
    package static func requestError(
        type: HealthObjectType, options: StatisticsOptions,
        grid: (anchor: Date, components: DateComponents, calendar: Calendar)? = nil
    ) -> HealthStoreError? {
        do throws(StatisticsError) {
            try options.validate(for: type)
            if let grid {
                _ = try IntervalGrid(anchor: grid.anchor, components: grid.components, calendar: grid.calendar)
            }
            return nil
        } catch {
            return storeError(error, options: options)
        }
    }

    /// The statistics engine's error as the store reports it: options unsuited to the type — or any options
    /// for a type that is not a quantity type — are HealthKit's incompatible option; anything else is wrapped.
    static func storeError(_ error: StatisticsError, options: StatisticsOptions) -> HealthStoreError {
        switch error {
        case .notAQuantityType(let type): .incompatibleStatisticsOption(type, option: options.name)
        case .incompatibleOption(let option, let type): .incompatibleStatisticsOption(type, option: option.name)
        default: .invalidStatisticsRequest(error)
        }
    }

    /// A statistics query's result: the engine's statistics over the gathered samples within the predicate's
    /// date range.
    /// - Throws: ``HealthStoreError/noData(_:)`` when no sample matched; the engine's errors otherwise.
    static func statistics(
        of gathered: StatisticsRecordGatherer, options: StatisticsOptions, predicate: SamplePredicate?
    ) throws(HealthStoreError) -> HealthStatistics {
        let type = gathered.type
        let bounds: (start: Date?, end: Date?) = predicate?.dateRange ?? (nil, nil)
        var window: DateInterval?
        if bounds.start != nil || bounds.end != nil {
            // An open bound closes on the samples; with no samples there is nothing to compute.
            guard let coverage = gathered.coverage else { throw .noData(type) }
            do throws(StatisticsError) {
                window = try interval(from: bounds.start ?? coverage.start, to: bounds.end ?? coverage.end)
            } catch {
                throw storeError(error, options: options)
            }
        }
        let statistics: HealthStatistics?
        do throws(StatisticsError) {
            statistics = try PreparedStatisticsInput(gathered, options: options).statistics(in: window)
        } catch {
            throw storeError(error, options: options)
        }
        guard let statistics else { throw .noData(type) }
        return statistics
    }

    /// A statistics collection query's result over the gathered samples: the intervals covering the predicate's
    /// date range, its open bounds closed by the samples' coverage (an empty range when there is nothing to close
    /// them with).
    static func collection(
        of gathered: StatisticsRecordGatherer, options: StatisticsOptions, predicate: SamplePredicate?,
        anchorDate: Date, intervalComponents: DateComponents, calendar: Calendar
    ) throws(HealthStoreError) -> StatisticsCollection {
        try collection(
            options: options, predicate: predicate, anchorDate: anchorDate, coverage: gathered.coverage
        ) { range throws(StatisticsError) in
            try StatisticsCollection(
                PreparedStatisticsInput(gathered, options: options), anchorDate: anchorDate,
                intervalComponents: intervalComponents, calendar: calendar, range: range)
        }
    }

    /// The range a collection query covers — the predicate's date range, its open bounds closed by `coverage`
    /// (an empty range at the one bound, or at the anchor, when there is nothing to close them with) — and the
    /// collection `make` computes for it.
    private static func collection(
        options: StatisticsOptions, predicate: SamplePredicate?, anchorDate: Date,
        coverage: (start: Date, end: Date)?,
        make: (DateInterval) throws(StatisticsError) -> StatisticsCollection
    ) throws(HealthStoreError) -> StatisticsCollection {
        let bounds: (start: Date?, end: Date?) = predicate?.dateRange ?? (nil, nil)
        do throws(StatisticsError) {
            let range: DateInterval
            if let start = bounds.start ?? coverage?.start, let end = bounds.end ?? coverage?.end {
                range = try interval(from: start, to: end)
            } else {
                let only = bounds.start ?? bounds.end ?? anchorDate
                range = try interval(from: only, to: only)
            }
            return try make(range)
        } catch {
            throw storeError(error, options: options)
        }
    }

    /// `DateInterval(start:end:)` without its trap: a reversed or non-finite range is an error.
    private static func interval(from start: Date, to end: Date) throws(StatisticsError) -> DateInterval {
        guard start.timeIntervalSinceReferenceDate.isFinite, end.timeIntervalSinceReferenceDate.isFinite, end >= start
        else { throw .invalidDateRange(start: start, end: end) }
        return DateInterval(start: start, end: end)
    }

    /// A statistics query's outcome over the samples it sees.
    static func statistics(
        of samples: [HealthQuantitySample], for query: HealthStatisticsQuery
    ) -> Result<HealthStatistics, any Error> {
        statistics(of: StatisticsRecordGatherer(type: query.objectType, samples: samples), for: query)
    }

    /// A statistics query's outcome over the samples it sees, gathered as records.
    static func statistics(
        of gathered: StatisticsRecordGatherer, for query: HealthStatisticsQuery
    ) -> Result<HealthStatistics, any Error> {
        Result { () throws(HealthStoreError) in
            try statistics(of: gathered, options: query.options, predicate: query.predicate)
        }.mapError { $0 }
    }

    /// A statistics collection query's outcome over the samples at `positions` of `columns`: the samples it
    /// sees, which the caller selected.
    static func collection(
        of columns: SampleColumns, _ positions: Range<Int>, for query: HealthStatisticsCollectionQuery
    ) -> Result<StatisticsCollection, any Error> {
        Result { () throws(HealthStoreError) in
            try collection(
                options: query.options, predicate: query.predicate, anchorDate: query.anchorDate,
                coverage: columns.coverage(of: positions)
            ) { range throws(StatisticsError) in
                try StatisticsCollection(
                    query.objectType, columns: columns, positions: positions, options: query.options,
                    anchorDate: query.anchorDate, intervalComponents: query.intervalComponents,
                    calendar: query.calendar, range: range)
            }
        }.mapError { $0 }
    }

    /// A statistics collection query's outcome over the samples it sees.
    static func collection(
        of samples: [HealthQuantitySample], for query: HealthStatisticsCollectionQuery
    ) -> Result<StatisticsCollection, any Error> {
        collection(of: StatisticsRecordGatherer(type: query.objectType, samples: samples), for: query)
    }

    /// A statistics collection query's outcome over the samples it sees, gathered as records.
    static func collection(
        of gathered: StatisticsRecordGatherer, for query: HealthStatisticsCollectionQuery
    ) -> Result<StatisticsCollection, any Error> {
        Result { () throws(HealthStoreError) in
            try collection(
                of: gathered, options: query.options, predicate: query.predicate, anchorDate: query.anchorDate,
                intervalComponents: query.intervalComponents, calendar: query.calendar)
        }.mapError { $0 }
    }
}
