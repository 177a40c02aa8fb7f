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

    /// The samples activity summaries are derived from — every source's, whatever the app may read of their
    /// types — overlapping `interval` (every one without it), in start order per type.
    func activitySummaryInputs(overlapping interval: DateInterval?) -> [HealthSample] {
        let predicate = interval.map { SamplePredicate.samples(withStart: $0.start, end: $0.end) }
        return ActivitySummaryQueryEvaluation.inputTypes.flatMap { allSamples(of: $0, matching: predicate) }
    }
}
