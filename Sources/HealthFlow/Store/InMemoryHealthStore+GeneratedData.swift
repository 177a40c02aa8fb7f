/// Loading a ``GeneratedHealthData`` set into a store, for demos, benchmarks and tests.
extension InMemoryHealthStore {
    /// Adds every sample of a generated data set — steps, energy, heart rate, sleep, stand hours, blood
    /// pressure … — as the generator's devices (its phone and watch sources) recorded them: through
    /// ``ingest(_:)-([HealthSample])``, so no authorization or source rules apply and the app may read the
    /// data (if allowed) but not delete it. Activity summaries are not copied: the store derives them from
    /// these samples, so make the store with the generator's goals (`activitySummaryGoals:
    /// data.configuration.goals`) to serve the same summaries.
    ///
    /// - Throws: As ``ingest(_:)-([HealthSample])``: ``HealthStoreError/healthDataUnavailable``, or
    ///   ``HealthStoreError/duplicateUUID(_:)`` when the same set (or one with the same seed) was ingested
    ///   before; nothing is added then.
    /// - Complexity: O(n log n) for n samples (sorting them by start date); the store's indexes append.
    public func ingest(_ data: GeneratedHealthData) throws(HealthStoreError) {
        try ingest(data.allSamples())
    }
}
