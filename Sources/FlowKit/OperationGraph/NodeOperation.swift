import Foundation

/// What a node does when it runs. The closures keep the node's value in its ``ResultBox`` themselves and report
/// only success or the error, so the engine never needs the value's type.
@usableFromInline
enum NodeBody: Sendable {
    /// Work that completes before returning (a block, a recovery, the check after a caller's operation).
    case sync(@Sendable (_ inputError: (any Error)?) -> Result<Void, any Error>)
    /// Work that reports through `done` later (a promise, an `async` function); returns how to cancel it.
    case async(
        @Sendable (
            _ inputError: (any Error)?,
            _ done: @escaping @Sendable (Result<Void, any Error>) -> Void
        ) -> @Sendable () -> Void
    )

    /// A node running `work` and keeping its value in `box`.
    @inlinable
    static func value<Output>(into box: ResultBox<Output>, _ work: @escaping @Sendable () throws -> Output) -> NodeBody
    {
        .sync { _ in box.capture(work) }
    }

    /// A node following the promise `work` returns; cancelling the node withdraws from that promise (which is
    /// cancelled in turn, and runs its `onCancel` handlers, unless something else still depends on it).
    @inlinable
    static func promise<Output>(
        into box: ResultBox<Output>,
        _ work: @escaping @Sendable () throws -> Promise<Output>
    ) -> NodeBody {
        .async { _, done in
            let promise: Promise<Output>
            do {
                promise = try work()
            } catch {
                box.store(.failure(error))
                done(.failure(error))
                return {}
            }
            let observer = DerivedPromise<Output>(upstream: promise)
            promise.subscribe { observer.settle($0) }
            observer.subscribe(dependent: false) { result in
                box.store(result)
                done(result.map { _ in () })
            }
            return { observer.cancel() }
        }
    }

    /// A node running an `async` function in a new `Task`; cancelling the node cancels the task.
    @inlinable
    static func task<Output>(
        into box: ResultBox<Output>,
        _ work: @escaping @Sendable () async throws -> Output
    ) -> NodeBody {
        promise(into: box) { Promise { try await work() } }
    }

    /// A recovery node: passes `input` through when every input fulfilled; otherwise hands the first input error
    /// to `handler` if `policy` lets it, and rethrows it if not.
    @inlinable
    static func recovery<Output>(
        into box: ResultBox<Output>,
        policy: CatchPolicy,
        input: @escaping @Sendable () throws -> Output,
        handler: @escaping @Sendable (any Error) throws -> Output
    ) -> NodeBody {
        .sync { inputError in
            box.capture {
                guard let inputError else { return try input() }
                guard policy.handles(inputError) else { throw inputError }
                return try handler(inputError)
            }
        }
    }

    /// The check that runs after a caller's operation: cancelled means `CancellationError`, otherwise `extract`
    /// reads the value from the finished operation.
    @inlinable
    static func observing<Op: Operation, Output>(
        _ operation: Op,
        into box: ResultBox<Output>,
        _ extract: @escaping @Sendable (Op) throws -> Output
    ) -> NodeBody {
        .sync { _ in
            box.capture {
                if operation.isCancelled { throw CancellationError() }
                return try extract(operation)
            }
        }
    }
}

/// The asynchronous operation that runs one node for its graph.
///
/// It asks the engine, under the engine's lock, whether it may still run (the graph may have failed or been
/// cancelled since it was enqueued: then it finishes without calling user code and the trace says *skipped*),
/// runs the body with no lock held, reports the outcome, and only then finishes — so by the time its dependents
/// are enqueued, `OperationQueue` already sees it finished.
@usableFromInline
final class NodeOperation: AsyncOperation, @unchecked Sendable {
    // `@unchecked Sendable`: `index` and `isObserver` are immutable; everything mutable is in `run`, a `LockedState`.

    let index: Int
    /// For a node made from a caller's operation: this operation runs after it and only reports its outcome.
    let isObserver: Bool

    private struct RunState: Sendable {
        var body: NodeBody?
        var engine: GraphEngine?
        var canceller: (@Sendable () -> Void)?
        var cancelRequested = false
        var completed = false
    }

    private let run: LockedState<RunState>

    @usableFromInline
    init(index: Int, body: NodeBody, isObserver: Bool) {
        self.index = index
        self.isObserver = isObserver
        self.run = LockedState(RunState(body: body))
        super.init()
    }

    /// Hands the operation the engine that will hear from it; called just before it is enqueued.
    func attach(_ engine: GraphEngine) {
        run.withLock { $0.engine = engine }
    }

    override func start() {
        let taken = run.withLock { state in (state.engine, state.body) }
        guard let engine = taken.0, let body = taken.1 else {
            // Started outside a graph run (someone enqueued `node.operation` by hand): do nothing, but finish.
            markFinished()
            return
        }
        switch engine.begin(index, isObserver: isObserver) {
        case .skip(let actions):
            release()
            engine.apply(actions, finishing: self)
        case .run(let inputError):
            markExecuting()
            if isCancelled && !isObserver {
                // Cancelled by its owner (not by the graph) before it started: it fails with CancellationError.
                complete(.failure(CancellationError()), engine: engine)
                return
            }
            switch body {
            case .sync(let work):
                complete(work(inputError), engine: engine)
            case .async(let work):
                let canceller = work(inputError) { [self] result in complete(result, engine: engine) }
                let cancelNow = run.withLock { state in
                    if state.completed { return false }
                    if state.cancelRequested { return true }
                    state.canceller = canceller
                    return false
                }
                if cancelNow { canceller() }
            }
        }
    }

    override func cancel() {
        super.cancel()
        let canceller = run.withLock { state in
            state.cancelRequested = true
            let canceller = state.canceller
            state.canceller = nil
            return canceller
        }
        canceller?()
    }

    /// Reports the outcome once, then finishes.
    private func complete(_ result: Result<Void, any Error>, engine: GraphEngine) {
        let first = run.withLock { state in
            if state.completed { return false }
            state.completed = true
            return true
        }
        guard first else { return }
        let actions = engine.complete(index, with: result)
        release()
        engine.apply(actions, finishing: self)
    }

    /// Drops the body and the engine: a finished node holds no closures and no reference to its graph's run.
    private func release() {
        run.withLock { state in
            state.body = nil
            state.engine = nil
            state.canceller = nil
        }
    }
}
