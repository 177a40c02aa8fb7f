import Foundation

extension StoreState {
    /// The samples a statistics query over `type` and `predicate` sees, in start order: those a sample query
    /// would return (matching, and visible under the read rules — the app's own always).
    /// - Complexity: O(log n + m), as a sample query.
    func visibleQuantitySamples(
        of type: HealthObjectType, matching predicate: SamplePredicate?
    ) -> [HealthQuantitySample] {
        var samples: [HealthQuantitySample] = []
        forEachVisibleEntry(of: type, matching: predicate, reserve: { samples.reserveCapacity($0) }) { entry in
            if case .quantity(let quantity) = entry.sample { samples.append(quantity) }
        }
        return samples
    }

    /// The outcome of a statistics collection query over the current state, to compute outside the lock.
    ///
    /// Answered from the type's columns (built here on first use) when they hold exactly the samples the query
    /// sees — a predicate on dates alone, and every sample visible (the type readable, or every sample the
    /// app's own) — and otherwise from the visible samples, gathered now. The columns are captured, not copied:
    /// a change made while the outcome is still pending copies them once (copy on write).
    /// - Complexity: Under the lock, O(log n) from built columns with no predicate or with every sample in the
    ///   date range matching it (O(m) otherwise, m the samples in range); O(n) to build them once.
    mutating func collectionOutcome(
        for query: HealthStatisticsCollectionQuery
    ) -> @Sendable () -> Result<StatisticsCollection, any Error> {
        let type = query.objectType
        let predicate = query.predicate
        if predicate?.testsDatesOnly ?? true, let slot = slots[type] {
            if indexes[slot].statisticsColumns == nil, var columns = SampleColumns(type: type) {
                for entry in indexes[slot].entries { columns.insert(entry) }
                indexes[slot].statisticsColumns = columns
            }
            if let columns = indexes[slot].statisticsColumns, columns.isComplete,
                columns.foreignCount == 0 || authorization.mayRead(type)
            {
                let selected = columns.selecting(range(of: predicate, in: columns)) { start, end in
                    predicate?.matchesDates(start: start, end: end) ?? true
                }
                return { StatisticsQueryEvaluation.collection(of: selected.columns, selected.positions, for: query) }
            }
        }
        let samples = visibleQuantitySamples(of: type, matching: predicate)
        return { StatisticsQueryEvaluation.collection(of: samples, for: query) }
    }

    /// The positions of `columns` that can match a date predicate: those starting before its end, and at or
    /// after its start less the longest duration (its start itself with `strictStartDate`), as sample queries
    /// narrow the index (``QueryPlan``).
    private func range(of predicate: SamplePredicate?, in columns: SampleColumns) -> Range<Int> {
        let plan = QueryPlan(predicate, longestDuration: columns.longestDuration)
        let lower = plan.lowerStart.map(columns.firstPosition(startingAtOrAfter:)) ?? 0
        let upper = plan.upperStart.map(columns.firstPosition(startingAtOrAfter:)) ?? columns.count
        return lower..<max(lower, upper)
    }

    /// The samples activity summaries are derived from — every source's, whatever the app may read of their
    /// types — overlapping `interval` (every one without it), in start order per type.
    func activitySummaryInputs(overlapping interval: DateInterval?) -> [HealthSample] {
        let predicate = interval.map { SamplePredicate.samples(withStart: $0.start, end: $0.end) }
        return ActivitySummaryQueryEvaluation.inputTypes.flatMap { allSamples(of: $0, matching: predicate) }
    }
}

extension SampleColumns {
    /// Adds a stored entry's sample, when it is a quantity sample.
    mutating func insert(_ entry: IndexedSample) {
        if case .quantity(let sample) = entry.sample { insert(sample, isOwned: entry.isOwned) }
    }

    /// Removes a stored entry's sample, when it is a quantity sample.
    mutating func remove(_ entry: IndexedSample) {
        if case .quantity(let sample) = entry.sample { remove(sample, isOwned: entry.isOwned) }
    }
}
