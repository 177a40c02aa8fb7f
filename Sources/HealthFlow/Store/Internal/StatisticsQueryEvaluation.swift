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

    /// A statistics query's result: the engine's statistics over `samples` within the predicate's date range.
    /// - Throws: ``HealthStoreError/noData(_:)`` when no sample matched; the engine's errors otherwise.
    static func statistics(
        of type: HealthObjectType, samples: [HealthQuantitySample], options: StatisticsOptions,
        predicate: SamplePredicate?
    ) throws(HealthStoreError) -> HealthStatistics {
        let bounds: (start: Date?, end: Date?) = predicate?.dateRange ?? (nil, nil)
        var window: DateInterval?
        if bounds.start != nil || bounds.end != nil {
            // An open bound closes on the samples; with no samples there is nothing to compute.
            guard let coverage = coverage(of: samples) else { throw .noData(type) }
            do throws(StatisticsError) {
                window = try interval(from: bounds.start ?? coverage.start, to: bounds.end ?? coverage.end)
            } catch {
                throw storeError(error, options: options)
            }
        }
        let statistics: HealthStatistics?
        do throws(StatisticsError) {
            statistics = try HealthStatistics.compute(type, from: samples, options: options, in: window)
        } catch {
            throw storeError(error, options: options)
        }
        guard let statistics else { throw .noData(type) }
        return statistics
    }

    /// A statistics collection query's result over `samples`: the intervals covering the predicate's date
    /// range, its open bounds closed by the samples' coverage (an empty range when there is nothing to close
    /// them with).
    static func collection(
        of type: HealthObjectType, samples: [HealthQuantitySample], options: StatisticsOptions,
        predicate: SamplePredicate?, anchorDate: Date, intervalComponents: DateComponents, calendar: Calendar
    ) throws(HealthStoreError) -> StatisticsCollection {
        try collection(
            options: options, predicate: predicate, anchorDate: anchorDate, coverage: coverage(of: samples)
        ) { range throws(StatisticsError) in
            try StatisticsCollection(
                type, samples: samples, options: options, anchorDate: anchorDate,
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

    /// The span the samples occupy: the earliest start, and the latest end — just past the instant, for an
    /// instantaneous sample, so that a half-open window over the span still holds it. `nil` for no samples.
    static func coverage(of samples: [HealthQuantitySample]) -> (start: Date, end: Date)? {
        guard var start = samples.first?.startDate.timeIntervalSinceReferenceDate else { return nil }
        var end = -Double.infinity
        for sample in samples {
            let lower = sample.startDate.timeIntervalSinceReferenceDate
            let upper = sample.endDate.timeIntervalSinceReferenceDate
            start = min(start, lower)
            end = max(end, upper > lower ? upper : lower.nextUp)
        }
        return (Date(timeIntervalSinceReferenceDate: start), Date(timeIntervalSinceReferenceDate: end))
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
        Result { () throws(HealthStoreError) in
            try statistics(
                of: query.objectType, samples: samples, options: query.options, predicate: query.predicate)
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
        Result { () throws(HealthStoreError) in
            try collection(
                of: query.objectType, samples: samples, options: query.options, predicate: query.predicate,
                anchorDate: query.anchorDate, intervalComponents: query.intervalComponents, calendar: query.calendar)
        }.mapError { $0 }
    }
}
