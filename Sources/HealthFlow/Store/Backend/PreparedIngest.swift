import Foundation

/// Samples checked against the sample rules and encoded as the log record that inserts them, made on whatever
/// thread made the samples (``PreparedIngesting/prepareIngest(_:)``): the store then holds its lock only to check
/// UUID uniqueness and store them. An import prepares each batch while the store writes the one before.
package struct PreparedIngest: Sendable {
    /// The samples, as given: top-level samples, correlations with their members.
    package let samples: [HealthSample]
    /// The batch's objects as validation read them (owner `""`: an ingest has no owning app), for the store's
    /// uniqueness check.
    let keys: BatchKeys
    /// The batch's log record, framed, as the backend writes it.
    let framedLog: [UInt8]
    /// The backend type whose encoding `framedLog` is.
    let backend: ObjectIdentifier
}

/// A store that can take batches prepared ahead of its lock (``PreparedIngest``).
package protocol PreparedIngesting: Sendable {
    /// Validates and encodes `samples` without the store's lock.
    func prepareIngest(_ samples: [HealthSample]) throws -> PreparedIngest
    /// Adds a prepared batch, all-or-nothing, as `ingest(_:)` adds samples.
    func ingest(_ prepared: PreparedIngest) throws
}

/// A backend whose log record for an insertion depends only on the samples inserted, so it can be made before
/// the store's lock is taken.
package protocol PreparedInsertBackend: HealthStoreBackend {
    /// The framed log record that inserts the top-level `samples` (correlations carry their members).
    /// - Throws: When the batch cannot be encoded (a record past the log's limit).
    static func framedLog(inserting samples: [HealthSample]) throws -> [UInt8]

    /// Stores `objects` as ``HealthStoreBackend/insert(_:)`` does, writing `framedLog` — made by
    /// ``framedLog(inserting:)`` of the top-level samples among `objects` — as their log record.
    mutating func insert(_ objects: [StoredHealthSample], framedLog: [UInt8]) throws
}
