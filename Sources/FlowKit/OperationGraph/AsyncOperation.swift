import Foundation

/// An `Operation` that stays *executing* after `start()` returns, until its work calls ``finish()``.
///
/// `OperationQueue` considers a plain operation finished when `main()` returns, which is too early for work that
/// completes later — a URL task, a HealthKit query, a promise, an `async` function. Subclass `AsyncOperation`,
/// override ``execute()`` to start that work, and call ``finish()`` once it is done; operations that depend on it
/// wait until then.
///
/// ```swift
/// final class DownloadOperation: AsyncOperation, @unchecked Sendable {
///     let url: URL
///     init(url: URL) { self.url = url }
///
///     override func execute() {
///         URLSession.shared.dataTask(with: url) { [self] _, _, _ in finish() }.resume()
///     }
/// }
///
/// let download = DownloadOperation(url: url)
/// let parse = BlockOperation { /* runs after the download completes, not after resume() returns */ }
/// parse.addDependency(download)
/// queue.addOperations([download, parse], waitUntilFinished: false)
/// ```
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
    ///
    /// ```swift
    /// let operation = MyAsyncOperation()
    /// queue.addOperation(operation)
    /// ```
    public override init() {
        super.init()
    }

    /// Always `true`: the operation manages its own `isExecuting` and `isFinished`.
    ///
    /// ```swift
    /// #expect(MyAsyncOperation().isAsynchronous)
    /// ```
    open override var isAsynchronous: Bool { true }

    /// Whether ``execute()`` has been called and ``finish()`` has not.
    ///
    /// ```swift
    /// if operation.isExecuting { showSpinner() }
    /// ```
    open override var isExecuting: Bool { phase.withLock { $0.executing } }

    /// Whether the operation has finished (or was cancelled before it started, and so finished at once).
    ///
    /// ```swift
    /// operation.waitUntilFinished()
    /// #expect(operation.isFinished)
    /// ```
    open override var isFinished: Bool { phase.withLock { $0.finished } }

    /// Called by the queue: finishes at once if cancelled, otherwise becomes executing and calls ``execute()``.
    ///
    /// Do not call it yourself when the operation is in a queue; override ``execute()`` rather than this method.
    ///
    /// ```swift
    /// let operation = MyAsyncOperation()
    /// operation.start()   // outside a queue: runs it on this thread, as with any Operation
    /// ```
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
    ///
    /// ```swift
    /// override func execute() {
    ///     store.save(sample) { [self] _, _ in finish() }
    /// }
    /// ```
    open func execute() {
        finish()
    }

    /// Marks the operation finished, which lets its dependents start. Only the first call has an effect.
    ///
    /// ```swift
    /// task.resume()   // … and in its completion handler:
    /// finish()
    /// ```
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
