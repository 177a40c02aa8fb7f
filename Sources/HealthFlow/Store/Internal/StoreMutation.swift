import Foundation

/// One change to a store's data, as a durable store journals it: everything that changes ``StoreState``
/// (apart from running queries) is one of these, and ``StoreState/apply(_:)`` is the one place it is applied,
/// so replaying a journal rebuilds the same state — sequence numbers, anchors and tombstones included.
enum StoreMutation: Hashable, Sendable {
    /// Samples saved by the app or ingested from another source, as one all-or-nothing batch (correlations
    /// with their members).
    case insert([HealthSample])
    /// Samples ingested with series data (``HealthSampleSeries``: an ECG's voltages, a workout's routes), as one
    /// all-or-nothing batch: each sample is inserted as `.insert` would, and its series kept beside it. A batch
    /// comes from one `ingest(_:)` of one recording type, so its series are of one kind.
    case insertSeries([SeriesSample])
    /// A series added to the stored sample with the UUID, after the series it holds (routes added to a stored
    /// workout); only kinds with an ``SeriesKind/additionRecord`` take additions. An addition that `announces`
    /// moves the sample to the next sequence number (every addition made now); one that does not is an earlier
    /// version's journal record, replayed as it was written so that the sequence numbers after it stay the same.
    case addSeries(UUID, HealthSampleSeries, announces: Bool)
    /// Samples deleted by UUID (top-level samples: a correlation takes its members), as one batch.
    case delete([UUID])
    /// The person's answer to a permission sheet: the types allowed, and the request they answered.
    case authorization(share: Set<HealthObjectType>, read: Set<HealthObjectType>, request: AuthorizationRequest)
}
