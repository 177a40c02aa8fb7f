/// What keeps a ``StoreEngine``'s changes beyond the process: nothing (``MemoryPersistence``), or a journal
/// and snapshots (`JournalPersistence`, a ``FileHealthStore``'s).
///
/// The engine calls ``record(_:)`` with its state lock held, after a change passed the rules and before it is
/// applied, in the order changes are applied; a change is applied (and its completion reports success) only
/// when `record` returns. When `record` throws, nothing is applied and the caller gets the error.
protocol StorePersistence: Sendable {
    /// Why a change could not be kept; `Never` for a store whose changes cannot fail.
    associatedtype Failure: Error

    /// Makes `mutation` durable (written and flushed to stable storage) or throws.
    func record(_ mutation: StoreMutation) throws(Failure)

    /// Called after each change (applied or refused) once the engine's lock is released: the place for work
    /// that reads the whole state, such as a snapshot that has fallen due.
    func changeFinished(in engine: StoreEngine<Self>)
}

/// The persistence of an ``InMemoryHealthStore``: none. Recording cannot fail and does nothing, so the
/// engine specialised for it has no storage error paths and keeps no log.
struct MemoryPersistence: StorePersistence {
    func record(_ mutation: StoreMutation) {}

    func changeFinished(in engine: StoreEngine<Self>) {}
}
