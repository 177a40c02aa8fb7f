import Foundation

/// One change to a store's data, as a durable store journals it: everything that changes ``StoreState``
/// (apart from running queries) is one of these, and ``StoreState/apply(_:)`` is the one place it is applied,
/// so replaying a journal rebuilds the same state — sequence numbers, anchors and tombstones included.
enum StoreMutation: Hashable, Sendable {
    /// Samples saved by the app or ingested from another source, as one all-or-nothing batch (correlations
    /// with their members).
    case insert([HealthSample])
    /// ECGs ingested with their voltage measurements, as one all-or-nothing batch: each ECG is inserted as
    /// `.insert` would, and its measurements kept beside it.
    case insertRecordings([ElectrocardiogramRecording])
    /// Workouts ingested with their routes, as one all-or-nothing batch: each workout is inserted as `.insert`
    /// would, and its routes kept beside it.
    case insertWorkoutRecordings([WorkoutRecording])
    /// Samples deleted by UUID (top-level samples: a correlation takes its members), as one batch.
    case delete([UUID])
    /// The person's answer to a permission sheet: the types allowed, and the request they answered.
    case authorization(share: Set<HealthObjectType>, read: Set<HealthObjectType>, request: AuthorizationRequest)
}

extension [ElectrocardiogramRecording] {
    /// The recordings' ECG samples, which an `insertRecordings` inserts.
    var samples: [HealthSample] { map { .electrocardiogram($0.electrocardiogram) } }
}

extension [WorkoutRecording] {
    /// The recordings' workouts, which an `insertWorkoutRecordings` inserts.
    var samples: [HealthSample] { map { .workout($0.workout) } }
}
