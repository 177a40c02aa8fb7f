import Foundation

extension InMemoryHealthStore: HealthChangeHistory {
    /// See ``HealthChangeHistory/storeID``: a new identity for every new in-memory store.
    ///
    /// ```swift
    /// InMemoryHealthStore(configuration: app).storeID != InMemoryHealthStore(configuration: app).storeID
    /// ```
    public var storeID: UUID { withLockedState { $0.storeID } }

    /// See ``HealthChangeHistory/historyCheckpoint()``.
    ///
    /// ```swift
    /// let mark = store.historyCheckpoint()
    /// ```
    /// - Returns: The checkpoint at the last change.
    public func historyCheckpoint() -> HealthHistoryCheckpoint {
        withLockedState { $0.historyCheckpoint() }
    }

    /// See ``HealthChangeHistory/mismatch(with:)``.
    ///
    /// ```swift
    /// store.mismatch(with: mark)   // nil
    /// ```
    /// - Parameter checkpoint: A checkpoint taken earlier.
    /// - Returns: Why it is not on this store's history, or `nil`.
    public func mismatch(with checkpoint: HealthHistoryCheckpoint) -> HealthHistoryMismatch? {
        withLockedState { $0.mismatch(with: checkpoint) }
    }

    /// See ``HealthChangeHistory/lastChangeSequence``.
    ///
    /// ```swift
    /// store.lastChangeSequence   // 0 for a new store
    /// ```
    public var lastChangeSequence: UInt64 { withLockedState { $0.sequence } }
}
