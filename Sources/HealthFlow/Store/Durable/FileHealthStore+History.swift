import Foundation

extension FileHealthStore: HealthChangeHistory {
    /// See ``HealthChangeHistory/storeID``: drawn when the directory's first file was written and kept in the
    /// header of every journal and snapshot since.
    ///
    /// ```swift
    /// try FileHealthStore(directory: url, configuration: app).storeID   // the same after every reopening
    /// ```
    public var storeID: UUID { core.storeID }

    /// See ``HealthChangeHistory/historyCheckpoint()``.
    ///
    /// ```swift
    /// let mark = store.historyCheckpoint()
    /// ```
    /// - Returns: The checkpoint at the last change.
    public func historyCheckpoint() -> HealthHistoryCheckpoint { core.historyCheckpoint() }

    /// See ``HealthChangeHistory/mismatch(with:)``.
    ///
    /// ```swift
    /// reopened.mismatch(with: mark)   // nil: the same history
    /// ```
    /// - Parameter checkpoint: A checkpoint taken earlier.
    /// - Returns: Why it is not on this store's history, or `nil`.
    public func mismatch(with checkpoint: HealthHistoryCheckpoint) -> HealthHistoryMismatch? {
        core.mismatch(with: checkpoint)
    }

    /// See ``HealthChangeHistory/lastChangeSequence``.
    ///
    /// ```swift
    /// store.lastChangeSequence   // the same after reopening
    /// ```
    public var lastChangeSequence: UInt64 { core.lastChangeSequence }
}
