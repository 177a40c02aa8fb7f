import Foundation

/// A store that can vouch for its own change history: which store it is, how far its change sequence has
/// counted, and whether a point recorded earlier still lies on that history.
///
/// Anchors are positions in one store's change sequence. Kept beside a different store — the data folder
/// recreated, restored from an older copy, or shared by two stores — an anchor points at changes that never
/// happened there, and an anchored query from it silently returns nothing. A client that remembers a
/// ``HealthHistoryCheckpoint`` asks ``mismatch(with:)`` before trusting its anchors; a mismatch means: start
/// again from the beginning.
///
/// ``InMemoryHealthStore`` and ``FileHealthStore`` conform (the file store keeps its identity in every file's
/// header), and so does a ``BackedHealthStore`` over a ``HealthHistoryStoreBackend`` such as
/// ``SegmentedHealthStoreBackend``. HealthKit's anchors are opaque and its store has no identity to ask, so the
/// HealthKit bridge does not.
///
/// ```swift
/// if let history = store as? any HealthChangeHistory, let saved = state.checkpoint,
///     let mismatch = history.mismatch(with: saved)
/// {
///     print("sending everything again: \(mismatch)")
/// }
/// ```
public protocol HealthChangeHistory: HealthStore {
    /// The store's identity, drawn when the store was created; a recreated store has a new one.
    var storeID: UUID { get }

    /// Where the history stands now: the identity, the last change's sequence number and a fingerprint of
    /// every change up to it. Take it before reading the changes it covers, and keep it once they are delivered.
    ///
    /// - Complexity: O(1): the store keeps the fingerprint as changes apply.
    func historyCheckpoint() -> HealthHistoryCheckpoint

    /// Why `checkpoint` is not a point of this store's history, or `nil` when it is (same store, not beyond the
    /// last change, and the changes up to it are the ones that were fingerprinted).
    ///
    /// - Parameter checkpoint: A checkpoint taken earlier, possibly from another store.
    /// - Returns: The mismatch, or `nil`.
    /// - Complexity: O(types × log n + changes after the checkpoint).
    func mismatch(with checkpoint: HealthHistoryCheckpoint) -> HealthHistoryMismatch?

    /// The sequence number of the last change (0 for a store never changed); an anchor beyond it does not
    /// belong to this store's history.
    var lastChangeSequence: UInt64 { get }
}

/// A point of a store's change history: the store, a change sequence number, and a fingerprint of every
/// insertion and deletion up to and including it.
///
/// The fingerprint is a 64-bit sum of a mix of each change's sequence number and object UUID, so it is the
/// same in every process and on every platform; changes after the checkpoint never alter it (the logs it reads
/// are append-only), while a history rewritten below it — a store restored from an older copy that then took
/// new samples — almost surely does.
public struct HealthHistoryCheckpoint: Hashable, Sendable, Codable {
    /// The store's identity (``HealthChangeHistory/storeID``).
    public let storeID: UUID
    /// The last change the checkpoint covers.
    public let sequence: UInt64
    /// The fingerprint of the changes up to ``sequence``.
    public let fingerprint: UInt64

    /// Makes a checkpoint (stores make these; tests forge them).
    public init(storeID: UUID, sequence: UInt64, fingerprint: UInt64) {
        self.storeID = storeID
        self.sequence = sequence
        self.fingerprint = fingerprint
    }

    private enum CodingKeys: String, CodingKey {
        case storeID, sequence, fingerprint
    }

    /// Decodes `{"storeID":"…","sequence":42,"fingerprint":"00000000000000ff"}` (the fingerprint as 16 hex
    /// digits: JSON numbers lose precision past 2^53).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        storeID = try container.decode(UUID.self, forKey: .storeID)
        sequence = try container.decode(UInt64.self, forKey: .sequence)
        let hex = try container.decode(String.self, forKey: .fingerprint)
        guard hex.count == 16, let value = UInt64(hex, radix: 16) else {
            throw DecodingError.dataCorruptedError(
                forKey: .fingerprint, in: container, debugDescription: "not 16 hexadecimal digits")
        }
        fingerprint = value
    }

    /// Encodes the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(storeID, forKey: .storeID)
        try container.encode(sequence, forKey: .sequence)
        let digits = String(fingerprint, radix: 16)
        try container.encode(String(repeating: "0", count: 16 - digits.count) + digits, forKey: .fingerprint)
    }
}

/// Why a ``HealthHistoryCheckpoint`` is not a point of a store's history.
public enum HealthHistoryMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The checkpoint was taken from another store (or one since recreated).
    case differentStore(recorded: UUID, current: UUID)
    /// The checkpoint lies past the store's last change (the store was restored from an older copy, or the
    /// checkpoint was edited).
    case beyondEnd(recorded: UInt64, end: UInt64)
    /// The store's changes up to the checkpoint are not the ones fingerprinted (a restored copy took new
    /// changes since).
    case rewritten(sequence: UInt64)

    /// One line, without health values.
    public var description: String {
        switch self {
        case .differentStore(let recorded, let current):
            "it was made for store \(recorded.uuidString), this is store \(current.uuidString)"
        case .beyondEnd(let recorded, let end):
            "it records change \(recorded), but this store's last change is \(end)"
        case .rewritten(let sequence):
            "this store's changes up to \(sequence) are not the ones recorded"
        }
    }
}

extension HealthHistoryCheckpoint {
    /// Why this checkpoint is not a point of the history of store `storeID`, whose last change is `last` and whose
    /// fingerprint through a sequence `fingerprint` gives (`nil`: not vouched for), or `nil` when it is: the one
    /// rule of ``HealthChangeHistory/mismatch(with:)`` for every store.
    func mismatch(
        storeID: UUID, last: UInt64, fingerprint: (UInt64) -> UInt64?
    ) -> HealthHistoryMismatch? {
        if self.storeID != storeID { return .differentStore(recorded: self.storeID, current: storeID) }
        if sequence > last { return .beyondEnd(recorded: sequence, end: last) }
        if fingerprint(sequence) != self.fingerprint { return .rewritten(sequence: sequence) }
        return nil
    }
}
