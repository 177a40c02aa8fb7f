import HealthFlow

/// Why a sync run did not trust the anchors it found and sent everything from the beginning.
///
/// Anchors are positions in one store's history. When the state file describes another store (the data folder
/// was recreated, restored from an older copy, or is shared by two stores), trusting them would skip changes
/// without a word; resending is safe because the receiver de-duplicates by sample UUID and idempotency key.
public enum SyncRestart: Hashable, Sendable, CustomStringConvertible {
    /// The recorded ``SyncState/checkpoint`` is not a point of this store's history.
    case historyMismatch(HealthHistoryMismatch)
    /// An anchor lies past the store's last change (edited, or from another store).
    case anchorBeyondEnd(type: String, anchor: UInt64, end: UInt64)
    /// The state has anchors but no checkpoint (written before checkpoints were kept): nothing says which
    /// store they belong to.
    case noCheckpoint

    /// One line, without health values.
    public var description: String {
        switch self {
        case .historyMismatch(let mismatch): "the sync state does not match this store: \(mismatch)"
        case .anchorBeyondEnd(let type, let anchor, let end):
            "the \(type) anchor (change \(anchor)) lies past this store's last change (\(end))"
        case .noCheckpoint: "the sync state does not say which store its anchors belong to"
        }
    }

    /// Why `state`'s anchors cannot be trusted for `store`, or `nil` when they can (or the store keeps no
    /// history to check them against, as HealthKit).
    static func check(_ state: SyncState, against store: any HealthStore) -> SyncRestart? {
        guard let history = store as? any HealthChangeHistory else { return nil }
        if let checkpoint = state.checkpoint, let mismatch = history.mismatch(with: checkpoint) {
            return .historyMismatch(mismatch)
        }
        let end = history.lastChangeSequence
        for (type, anchor) in state.anchors.sorted(by: { $0.key < $1.key })
        where anchor.opaque == nil && anchor.sequence > end {
            return .anchorBeyondEnd(type: type, anchor: anchor.sequence, end: end)
        }
        if state.checkpoint == nil, !state.anchors.isEmpty { return .noCheckpoint }
        return nil
    }
}
