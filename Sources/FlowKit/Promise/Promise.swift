/// A value that will exist later — or an error explaining why it never will.
///
/// A promise starts *pending* and settles exactly once, either *fulfilled* with a `Value` or *rejected* with an
/// error. The first resolution wins; every later `fulfill`, `reject` or `resolve` is ignored (this is what makes
/// racing callbacks safe). Continuations attached after settlement still run.
///
/// ## How it runs
/// Each continuation is *scheduled* on its ``FlowExecutor`` (by default ``FlowDefaults/executor``), never called
/// from inside another continuation's stack frame, so chains of a million steps, cascades of promises resolved
/// with promises, and `when` over a million inputs all run in constant stack depth. State lives behind a lock
/// that is never held while your code runs. A settled promise keeps its result and nothing else, so a finished
/// chain is freed.
///
/// ## Cancellation
/// ``cancel()`` rejects a pending promise with `CancellationError`, which flows downstream like any error
/// (`ensure` still runs). Upstream, each promise counts the promises derived from it; when all of them are
/// cancelled, it is cancelled too and its ``Resolver/onCancel(_:)`` handlers run — so cancelling the end of a
/// chain stops the URL task or timer at its start, but never work that another chain still needs.
///
/// - Note: `Value` must be `Sendable`: it crosses from the thread that settles the promise to the executors
///   of its continuations.
public class Promise<Value: Sendable>: @unchecked Sendable {
    // Safe: the only mutable stored property, `state`, is read and written under `lock` (see `withState`).
    // The class is not `final` only so that FlowKit's chaining operators can make the derived promise its own
    // continuation (`ChainedPromise`, one allocation per link); it is not `open`, so no other module subclasses
    // it, and every member declared here is `final`.

    /// A continuation as stored while pending; it must return quickly (it only hops to an executor).
    @usableFromInline
    typealias Callback = @Sendable (Result<Value, any Error>) -> Void

    @usableFromInline
    struct State {
        @usableFromInline var slot = ResultSlot()
        @usableFromInline var callbacks = CallbackList<Value>()
        @usableFromInline var upstream = UpstreamList()
        @usableFromInline var dependents = 0
        @usableFromInline var withdrawn = 0
        @usableFromInline var cancelHandlers: [@Sendable () -> Void] = []

        @inlinable
        init() {}

        @inlinable
        var isPending: Bool { slot.isPending }

        /// Stores `result` if still pending and moves out what a settled promise no longer keeps (without
        /// copying, so without retaining anything under the lock); `false` if it had already settled.
        @inlinable
        mutating func settle(with result: Result<Value, any Error>, movingInto taken: inout Settlement) -> Bool {
            guard isPending else { return false }
            slot.store(result)
            swap(&callbacks, &taken.callbacks)
            swap(&upstream, &taken.upstream)
            swap(&cancelHandlers, &taken.cancelHandlers)
            return true
        }

        /// A copy of the result, `nil` while pending.
        @inlinable
        mutating func result() -> Result<Value, any Error>? {
            slot.load(Value.self)
        }
    }

    /// What settling takes out of the state, to be used (and released) after the lock is released.
    @usableFromInline
    struct Settlement {
        @usableFromInline var callbacks = CallbackList<Value>()
        @usableFromInline var upstream = UpstreamList()
        @usableFromInline var cancelHandlers: [@Sendable () -> Void] = []

        @inlinable
        init() {}
    }

    @usableFromInline
    final let lock = StateLock()

    // Guarded by `lock`: read and written only inside `withState`, which holds it; so the dynamic
    // exclusivity check (a measurable part of every operation) is redundant and switched off.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) final var state: State

    /// Runs `body` with exclusive access to the state; never call user code from `body`.
    @inlinable
    final func withState<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { body(&state) }
    }

    /// A pending promise that will be cancelled when `upstream` should be.
    @inlinable
    init(upstream: (any PromiseNode)?) {
        var initial = State()
        if let upstream { initial.upstream.append(upstream) }
        state = initial
    }

    /// A promise already settled with `result`.
    ///
    /// - Parameter result: The value or error it holds.
    @inlinable
    public init(result: Result<Value, any Error>) {
        var initial = State()
        initial.slot.store(result)
        state = initial
    }

    deinit {
        state.slot.destroy(Value.self)
    }

    /// A promise already fulfilled with `value`.
    ///
    /// - Parameter value: The value it holds.
    @inlinable
    public convenience init(value: Value) {
        self.init(result: .success(value))
    }

    /// A promise already rejected with `error`.
    ///
    /// - Parameter error: The error it holds.
    @inlinable
    public convenience init(error: any Error) {
        self.init(result: .failure(error))
    }

    /// Creates a pending promise and runs `body` at once with the functions that settle it.
    ///
    /// If `body` throws, the promise is rejected with that error (unless it already settled).
    ///
    /// - Parameter body: Receives `fulfill` and `reject`; both may be called from any thread, later, once.
    @inlinable
    public convenience init(
        _ body: (
            _ fulfill: @escaping @Sendable (Value) -> Void,
            _ reject: @escaping @Sendable (any Error) -> Void
        ) throws -> Void
    ) {
        self.init(upstream: nil)
        do {
            try body({ [self] in settle(.success($0)) }, { [self] in settle(.failure($0)) })
        } catch {
            settle(.failure(error))
        }
    }

    /// Creates a pending promise and runs `body` at once with its ``Resolver``.
    ///
    /// The resolver also adapts completion handlers and registers cancellation handlers.
    ///
    /// - Parameter body: Receives the resolver; if it throws, the promise is rejected with that error.
    @inlinable
    public convenience init(_ body: (_ resolver: Resolver<Value>) throws -> Void) {
        self.init(upstream: nil)
        do {
            try body(Resolver(self))
        } catch {
            settle(.failure(error))
        }
    }

    /// A pending promise and the resolver that settles it, for code that settles it elsewhere.
    ///
    /// - Returns: The promise and its resolver.
    @inlinable
    public static func pending() -> (promise: Promise<Value>, resolver: Resolver<Value>) {
        let promise = Promise<Value>(upstream: nil)
        return (promise, Resolver(promise))
    }

    // MARK: - Inspecting

    /// The result if settled, `nil` while pending. A snapshot: it may change right after you read it.
    @inlinable
    public final var result: Result<Value, any Error>? {
        withState { $0.result() }
    }

    /// Whether the promise has not settled yet.
    @inlinable
    public final var isPending: Bool {
        withState { $0.isPending }
    }

    /// Whether the promise is fulfilled.
    @inlinable
    public final var isFulfilled: Bool {
        if case .success? = result { return true }
        return false
    }

    /// Whether the promise is rejected (cancellation included).
    @inlinable
    public final var isRejected: Bool {
        if case .failure? = result { return true }
        return false
    }

    // MARK: - Cancellation

    /// Cancels the promise: if pending, it rejects with `CancellationError`, its cancellation handlers run,
    /// and promises it was derived from are cancelled once none of their other dependents still need them.
    /// Does nothing once settled.
    public final func cancel() {
        Promise.cancelCascade(from: self)
    }

    // MARK: - Engine (internal)

    /// Settles the promise once; later calls return `false` and change nothing.
    ///
    /// Callbacks are invoked after the lock is released; each only hops to its executor. With
    /// `releasingUpstream`, promises this one depended on are told it no longer needs them (an early finish:
    /// a timeout, a race won, `when` failing fast).
    @inlinable
    @discardableResult
    final func settle(_ result: Result<Value, any Error>, releasingUpstream: Bool = false) -> Bool {
        var taken = Settlement()
        let won = withState { state in state.settle(with: result, movingInto: &taken) }
        guard won else { return false }
        taken.callbacks.forEach { $0(result) }
        if releasingUpstream {
            taken.upstream.forEach { node in
                if node.withdrawDependent() { Promise.cancelCascade(from: node) }
            }
        }
        return true
    }

    /// Attaches `callback`; it is invoked once with the result (at once if already settled).
    ///
    /// - Parameter dependent: whether the caller is a derived promise that counts towards cancellation.
    @inlinable
    final func subscribe(dependent: Bool = true, _ callback: @escaping Callback) {
        let settled: Result<Value, any Error>? = withState { state in
            if let result = state.result() { return result }
            if dependent { state.dependents += 1 }
            state.callbacks.append(callback)
            return nil
        }
        if let settled { callback(settled) }
    }

    /// Settles this promise with whatever `other` settles with, and cancels `other` if this one is cancelled.
    @inlinable
    final func adopt(_ other: Promise<Value>) {
        if other === self {
            settle(.failure(PromiseError.chainingCycle))
            return
        }
        if let settled = other.result {
            settle(settled)
            return
        }
        let linked = withState { state in
            guard state.isPending else { return false }
            state.upstream.append(other)
            return true
        }
        guard linked else { return }
        other.subscribe { [self] result in
            Trampoline.run { self.settle(result) }
        }
    }

    /// Registers a handler run when the promise is cancelled while pending; runs it at once if it already was.
    @inlinable
    final func addCancelHandler(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = withState { state in
            if state.isPending {
                state.cancelHandlers.append(handler)
                return false
            }
            return state.slot.isCancellation()
        }
        if runNow { handler() }
    }

    /// Cancels `first` and walks upstream with a work list (not recursion), so chains of any length unwind.
    @usableFromInline
    static func cancelCascade(from first: any PromiseNode) {
        var work: [any PromiseNode] = [first]
        while let node = work.popLast() {
            node.cancelLocally().forEach { upstream in
                if upstream.withdrawDependent() { work.append(upstream) }
            }
        }
    }
}

extension Promise: PromiseNode {
    @inlinable
    func withdrawDependent() -> Bool {
        withState { state in
            guard state.isPending else { return false }
            state.withdrawn += 1
            return state.withdrawn >= state.dependents
        }
    }

    @inlinable
    func cancelLocally() -> UpstreamList {
        let cancelled = Result<Value, any Error>.failure(CancellationError())
        var taken = Settlement()
        let won = withState { state in state.settle(with: cancelled, movingInto: &taken) }
        guard won else { return UpstreamList() }
        for handler in taken.cancelHandlers { handler() }
        taken.callbacks.forEach { $0(cancelled) }
        return taken.upstream
    }
}

extension Promise: CustomStringConvertible {
    /// `Promise<Int>(pending)`, `Promise<Int>(fulfilled: 42)` or `Promise<Int>(rejected: …)`.
    public var description: String {
        switch result {
        case nil: "Promise<\(Value.self)>(pending)"
        case .success(let value)?: "Promise<\(Value.self)>(fulfilled: \(value))"
        case .failure(let error)?: "Promise<\(Value.self)>(rejected: \(error))"
        }
    }
}
