import Synchronization

/// A value that will exist later — or an error explaining why it never will.
///
/// A promise starts *pending* and settles exactly once, either *fulfilled* with a `Value` or *rejected* with an
/// error. The first resolution wins; every later `fulfill`, `reject` or `resolve` is ignored (this is what makes
/// racing callbacks safe). Continuations attached after settlement still run.
///
/// ## How it runs
/// Each continuation is *scheduled* on its ``FlowExecutor`` (by default ``FlowDefaults/executor``), never called
/// from inside another continuation's stack frame, so chains of a million steps, cascades of promises resolved
/// with promises, and `when` over a million inputs all run in constant stack depth. A promise with one
/// continuation attaches, settles and is read with atomic operations alone; anything more uses a lock that is
/// never held while your code runs. A settled promise keeps its result and nothing else, so a finished chain is
/// freed.
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
    // Safe: every mutable stored property is owned as the ``PromiseWord`` protocol says. `slot` is written once,
    // by the settler that won the word's `settling` bit, before it publishes `settled` (release); it is read
    // only after `settled` was seen (acquire). `first` is written by the subscriber that claimed the word's
    // fast slot and read by whichever of that subscriber and the settler the word hands it to. `side` is
    // atomic; the state it holds is read and written under its lock, or by the settler alone once
    // the word says settled.
    // The class is not `final` only so that FlowKit's chaining operators can make the derived promise its own
    // continuation (`ChainedPromise`, one allocation per link); it is not `open`, so no other module subclasses
    // it, and every member declared here is `final`.

    /// A continuation as stored while pending; it must return quickly (it only hops to an executor).
    @usableFromInline
    typealias Callback = @Sendable (Result<Value, any Error>) -> Void

    /// What only a promise that needed more than its fast slot keeps up to date under the lock.
    @usableFromInline
    struct State {
        @usableFromInline var callbacks = CallbackList<Value>()
        @usableFromInline var upstream = UpstreamList()
        @usableFromInline var dependents = 0
        @usableFromInline var withdrawn = 0
        @usableFromInline var cancelHandlers: [@Sendable () -> Void] = []

        @inlinable
        init() {}
    }

    /// The lock and the state it guards, allocated by the first operation that marks the word
    /// ``PromiseWord/slow`` and published through the promise's ``SideReference`` (the first one stored wins).
    ///
    /// Kept out of the promise so that the common promise (one continuation, settled once) stays small enough
    /// for the allocator's cheapest size classes (glibc's fast bins: at most 120 bytes, checked by a test).
    @usableFromInline
    final class Side: PromiseSide, @unchecked Sendable {
        // Safe: `state` is read and written only under `lock` (or by the settler alone once the promise's word
        // says settled, when no other thread can reach it any more).
        @usableFromInline var state = State()

        @inlinable
        override init() {}
    }

    /// What settling takes out of the promise, to be used (and released) once no lock is held.
    @usableFromInline
    struct Settlement: Sendable {
        @usableFromInline var first: Callback?
        @usableFromInline var callbacks = CallbackList<Value>()
        @usableFromInline var upstream = UpstreamList()
        @usableFromInline var cancelHandlers: [@Sendable () -> Void] = []

        @inlinable
        init() {}

        /// Calls the continuations in attachment order: the fast slot's (always attached first), then the list.
        @inlinable
        func invoke(with result: Result<Value, any Error>) {
            if let first { first(result) }
            callbacks.invoke(with: result)
        }
    }

    /// The promise's phase and fast continuation slot; see ``PromiseWord``.
    @usableFromInline
    final let word: Atomic<UInt>

    // Owned as the comment at the top of the class says; no dynamic exclusivity checks (a measurable part of
    // every operation), since the word orders every access.
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) final var slot = ResultSlot()

    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) final var first: Callback?

    @usableFromInline
    final let side = SideReference()

    /// The side state, made now if no one made it yet.
    @inlinable
    final var sideState: Side {
        // Every side stored in this promise is a `Side` of its `Value`.
        unsafeDowncast(side.load() ?? side.storeIfNil(Side()), to: Side.self)
    }

    /// Runs `body` under the lock with the state of a promise still pending; `nil` (without running `body`)
    /// once it settled. Marks the word ``PromiseWord/slow`` first, so the settler takes the lock too.
    @inlinable
    final func withPendingState<Result: Sendable>(_ body: (inout State) -> Result) -> Result? {
        let before = word.bitwiseOr(PromiseWord.slow, ordering: .acquiringAndReleasing).oldValue
        if before & PromiseWord.settled != 0 { return nil }
        let side = sideState
        return side.lock.withLock {
            if word.load(ordering: .acquiring) & PromiseWord.settled != 0 { return nil }
            return body(&side.state)
        }
    }

    /// Takes the upstream promise this one was created with, if its kind keeps one (``DerivedPromise``,
    /// ``ChainedPromise``). Called once, by the settler, when it drains the promise.
    @inlinable
    func takeCreationUpstream() -> (any PromiseNode)? { nil }

    /// Lets go of the creation upstream when the promise settles on the fast path (nothing to cascade to).
    @inlinable
    func dropCreationUpstream() {}

    /// How many dependents the fast slot holds (0 or 1); they count with `state.dependents`.
    @inlinable
    final var fastDependents: Int {
        PromiseWord.fastDependents(word.load(ordering: .relaxed))
    }

    /// A pending promise.
    @inlinable
    init() {
        word = Atomic(0)
    }

    /// A promise already settled with `result`.
    ///
    /// - Parameter result: The value or error it holds.
    @inlinable
    public init(result: Result<Value, any Error>) {
        word = Atomic(PromiseWord.settling | PromiseWord.settled)
        slot.store(result)
    }

    deinit {
        slot.destroy(Value.self)
        side.destroy()
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
        self.init()
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
        self.init()
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
        let promise = Promise<Value>()
        return (promise, Resolver(promise))
    }

    // MARK: - Inspecting

    /// The result if settled, `nil` while pending. A snapshot: it may change right after you read it.
    @inlinable
    public final var result: Result<Value, any Error>? {
        guard word.load(ordering: .acquiring) & PromiseWord.settled != 0 else { return nil }
        return slot.load(Value.self)
    }

    /// Whether the promise has not settled yet.
    @inlinable
    public final var isPending: Bool {
        word.load(ordering: .acquiring) & PromiseWord.settled == 0
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
    /// Callbacks are invoked after the lock (if any) is released; each only hops to its executor. With
    /// `releasingUpstream`, promises this one depended on are told it no longer needs them (an early finish:
    /// a timeout, a race won, `when` failing fast).
    @inlinable
    @discardableResult
    final func settle(_ result: Result<Value, any Error>, releasingUpstream: Bool = false) -> Bool {
        guard let published = publish(result) else { return false }
        if published & PromiseWord.slow == 0 && !releasingUpstream {
            // Without `slow` there is no side state: only the fast slot and the upstream given at creation can be
            // held, and no other thread touches them any more.
            dropCreationUpstream()
            // Moved out, not copied: calling it costs no retain of its context.
            if PromiseWord.holdsFast(published), let first = first.take() { first(result) }
            return true
        }
        let taken = drain(published)
        if releasingUpstream {
            // Before the continuations: whoever sees this result also sees the released work told to stop.
            taken.upstream.forEach { Promise.withdraw(from: $0) }
        }
        taken.invoke(with: result)
        return true
    }

    /// Stores `result` if this call is the first to settle and publishes it; returns the word's bits from
    /// before `settled` was set (what the caller must take over), or `nil` if the promise was already settling.
    @inlinable
    final func publish(_ result: Result<Value, any Error>) -> UInt? {
        let claimed = word.bitwiseOr(PromiseWord.settling, ordering: .acquiring).oldValue
        if claimed & PromiseWord.settling != 0 { return nil }
        slot.store(result)
        return word.bitwiseOr(PromiseWord.settled, ordering: .acquiringAndReleasing).oldValue
    }

    /// Moves out what a settled promise no longer keeps (without copying, so without retaining anything);
    /// `published` is what ``publish(_:)`` returned. Takes the lock only if the word was marked `slow` (without
    /// it, there is no side state: every operation that makes one marks the word first).
    @inlinable
    final func drain(_ published: UInt) -> Settlement {
        // Without `slow`, no other thread touched the state and none will: the word says settled.
        var taken = Settlement()
        if published & PromiseWord.slow != 0 {
            // Whoever set `slow` may not have stored the side yet: then this makes it, and the lock orders the two.
            let side = sideState
            taken = side.lock.withLock { Promise.drain(side) }
        }
        if let upstream = takeCreationUpstream() { taken.upstream.append(upstream) }
        if PromiseWord.holdsFast(published) {
            taken.first = first  // moved by hand: `swap` would reabstract the closure through two thunks
            first = nil
        }
        return taken
    }

    /// Moves the callbacks, upstream and cancel handlers out of `side`'s state.
    @inlinable
    static func drain(_ side: Side) -> Settlement {
        var taken = Settlement()
        swap(&side.state.callbacks, &taken.callbacks)
        swap(&side.state.upstream, &taken.upstream)
        swap(&side.state.cancelHandlers, &taken.cancelHandlers)
        return taken
    }

    /// Attaches `callback`; it is invoked once with the result (at once if already settled).
    ///
    /// The first continuation of a promise no other operation touched takes the fast slot: one compare-and-swap
    /// and one add on the word, no lock. Every other one goes to the list under the lock.
    ///
    /// - Parameter dependent: whether the caller is a derived promise that counts towards cancellation.
    @inlinable
    final func subscribe(dependent: Bool = true, _ callback: @escaping Callback) {
        if word.compareExchange(expected: 0, desired: PromiseWord.claiming, ordering: .acquiring).exchanged {
            first = callback
            let mark = dependent ? PromiseWord.attached : PromiseWord.attachedIndependent
            let before = word.wrappingAdd(mark - PromiseWord.claiming, ordering: .acquiringAndReleasing).oldValue
            // Settled while claiming: the settler left the slot to this call.
            if before & PromiseWord.settled != 0, let callback = first {
                first = nil
                callback(slot.load(Value.self)!)
            }
            return
        }
        let attached = withPendingState { state in
            if dependent { state.dependents += 1 }
            state.callbacks.append(callback)
            return true
        }
        if attached == nil { callback(slot.load(Value.self)!) }
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
        let linked = withPendingState { state in state.upstream.append(other) } != nil
        guard linked else {
            // Cancelled before `other` was linked (while the step that returned it ran), so no cascade will reach
            // it: depend on it and withdraw at once, as the cascade would have, so that it is cancelled unless
            // something else still depends on it.
            if slot.isCancellation() {
                other.subscribe { _ in }
                Promise.withdraw(from: other)
            }
            return
        }
        other.subscribe { [self] result in
            Trampoline.run { self.settle(result) }
        }
    }

    /// Registers a handler run when the promise is cancelled while pending; runs it at once if it already was.
    @inlinable
    final func addCancelHandler(_ handler: @escaping @Sendable () -> Void) {
        let added = withPendingState { state in state.cancelHandlers.append(handler) } != nil
        if !added && slot.isCancellation() { handler() }
    }

    /// Lets go of `node` as one of its dependents: once none is left, it is cancelled with what it depends on.
    @usableFromInline
    static func withdraw(from node: any PromiseNode) {
        if node.withdrawDependent() { cancelCascade(from: node) }
    }

    /// Cancels `first` and walks upstream with a work list (not recursion), so chains of any length unwind.
    ///
    /// Every cancel handler of the cascade runs before any continuation hears of the cancellation: code that
    /// observes a cancelled promise (a graph settling, an `await` resuming) can rely on the work it was
    /// derived from having been told to stop.
    @usableFromInline
    static func cancelCascade(from first: any PromiseNode) {
        var work: [any PromiseNode] = [first]
        var deliveries: [() -> Void] = []
        while let node = work.popLast() {
            let cancelled = node.cancelLocally()
            cancelled.upstream.forEach { upstream in
                if upstream.withdrawDependent() { work.append(upstream) }
            }
            if let deliver = cancelled.deliver { deliveries.append(deliver) }
        }
        for deliver in deliveries { deliver() }
    }
}

extension Promise: PromiseNode {
    @inlinable
    func withdrawDependent() -> Bool {
        withPendingState { state in
            state.withdrawn += 1
            return state.withdrawn >= state.dependents + fastDependents
        } ?? false
    }

    @inlinable
    func cancelLocally() -> CancelledNode {
        let cancelled = Result<Value, any Error>.failure(CancellationError())
        guard let published = publish(cancelled) else { return CancelledNode() }
        let taken = drain(published)
        for handler in taken.cancelHandlers { handler() }
        return CancelledNode(upstream: taken.upstream) { taken.invoke(with: cancelled) }
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
