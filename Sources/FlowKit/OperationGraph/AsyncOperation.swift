import Foundation

/// An `Operation` that stays *executing* after `start()` returns, until its work calls ``finish()``.
///
/// `OperationQueue` considers a plain operation finished when `main()` returns, which is too early for work that
/// completes later — a URL task, a HealthKit query, a promise, an `async` function. Subclass `AsyncOperation`,
/// override ``execute()`` to start that work, and call ``finish()`` once it is done; operations that depend on it
/// wait until then.
///
/// ## State and notifications
/// The operation overrides `isAsynchronous` (always `true`), `isExecuting` and `isFinished`, keeps its state
/// behind a lock (`LockedState`), and surrounds every change with `willChangeValue(forKey:)` / `didChangeValue(forKey:)` for
/// `"isExecuting"` and `"isFinished"`. Those notifications are how both Apple's Foundation (through KVO) and
/// swift-corelibs-foundation on Linux (through its own `didChangeValue` hook) learn that an asynchronous operation
/// finished, start its dependents and free its queue slot. An operation cancelled before it starts finishes at
/// once without calling ``execute()``.
///
/// - Note: Subclasses inherit `@unchecked Sendable` from `Operation`; keep their own mutable state behind a lock.
open class AsyncOperation: Operation, @unchecked Sendable {
    // `@unchecked Sendable`: the only mutable state is `phase`, which lives in a `LockedState` (a lock).

    /// The life cycle as the queue sees it; `finishing` marks that one caller has claimed the transition to
    /// finished, so the notifications are sent exactly once however many threads call `finish()`.
    struct Phase: Sendable {
        var executing = false
        var finished = false
        var finishing = false
    }

    let phase = LockedState(Phase())

    /// Creates an operation that is ready to be added to a queue.
    public override init() {
        super.init()
    }

    /// Always `true`: the operation manages its own `isExecuting` and `isFinished`.
    open override var isAsynchronous: Bool { true }

    /// Whether ``execute()`` has been called and ``finish()`` has not.
    open override var isExecuting: Bool { phase.withLock { $0.executing } }

    /// Whether the operation has finished (or was cancelled before it started, and so finished at once).
    open override var isFinished: Bool { phase.withLock { $0.finished } }

    /// Called by the queue: finishes at once if cancelled, otherwise becomes executing and calls ``execute()``.
    ///
    /// Do not call it yourself when the operation is in a queue; override ``execute()`` rather than this method.
    open override func start() {
        if isCancelled {
            markFinished()
            return
        }
        markExecuting()
        execute()
    }

    /// Starts the work; call ``finish()`` when it is done, from any thread. The default finishes at once.
    ///
    /// Check `isCancelled` to stop early, and override `cancel()` (calling `super`) to stop work in flight.
    open func execute() {
        finish()
    }

    /// Marks the operation finished, which lets its dependents start. Only the first call has an effect.
    public final func finish() {
        markFinished()
    }

    /// Moves to executing, with the notifications the queue listens for.
    final func markExecuting() {
        willChangeValue(forKey: "isExecuting")
        phase.withLock { $0.executing = true }
        didChangeValue(forKey: "isExecuting")
    }

    /// Moves to finished (from executing or straight from ready) with the notifications, once.
    final func markFinished() {
        let wasExecuting: Bool? = phase.withLock { phase in
            guard !phase.finishing else { return nil }
            phase.finishing = true
            return phase.executing
        }
        guard let wasExecuting else { return }
        if wasExecuting { willChangeValue(forKey: "isExecuting") }
        willChangeValue(forKey: "isFinished")
        phase.withLock { phase in
            phase.executing = false
            phase.finished = true
        }
        if wasExecuting { didChangeValue(forKey: "isExecuting") }
        didChangeValue(forKey: "isFinished")
    }
}
