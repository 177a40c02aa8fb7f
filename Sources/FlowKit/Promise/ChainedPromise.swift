import Synchronization

/// The promise a chaining operator returns, which is also the continuation it registers on its source.
///
/// A link of a chain costs one allocation, this object: the derived promise holds the step itself, the closure
/// registered on the source captures only this object, and so does the job it submits; Swift uses a closure's
/// single captured object as its context, so neither closure allocates. The job reads the source's (settled,
/// immutable) result instead of carrying it.
///
/// `source` is both what the step reads and the upstream a cancellation cascades to, held once. `body` is set
/// before this object is published (by `subscribe`, through the source's state word or lock) and cleared by
/// `runStep`, which runs once: the source settles once, so `sourceSettled` is called once and submits one job.
/// So a finished link keeps neither its closure nor its source.
@usableFromInline
final class ChainedPromise<In: Sendable, Out: Sendable>: Promise<Out>, @unchecked Sendable {
    // Safe: `executor`, `handles` and `source` are constants. `body` is touched only by `init` (before any other
    // thread can see this object) and by `runStep` (once, after the executor's hand-off), so its dynamic
    // exclusivity checks (a tenth of a link's instructions) are redundant and off. `source` holds one reference,
    // taken by `init` and given back once, by whichever of `runStep` and a cancelling settler
    // (`takeCreationUpstream`) lets go of it last, as `sourceUse` decides (see ``SourceUse``), or by `deinit` if
    // the step never ran. Neither ever writes the field, so the two may read it at the same time.
    // Declaration order keeps the object at most 120 bytes (glibc's fast bins) for word-sized values.
    @usableFromInline
    let executor: FlowExecutor
    @usableFromInline
    let source: Unmanaged<Promise<In>>
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var body: ChainBody<In, Out>?
    @usableFromInline
    let handles: ChainHandles
    @usableFromInline
    let sourceUse: Atomic<UInt8>

    @inlinable
    init(source: Promise<In>, executor: FlowExecutor, handles: ChainHandles, body: ChainBody<In, Out>) {
        self.executor = executor
        self.source = .passRetained(source)
        self.body = body
        self.handles = handles
        sourceUse = Atomic(0)
        super.init()
    }

    /// Called once by the source when it settles: hands the step to the executor (or, for a result the
    /// operator passes through, to the trampoline). Both jobs capture only `self`.
    @inlinable
    func sourceSettled(with result: Result<In, any Error>) {
        if handles.runsBody(for: result) {
            executor.execute { self.runStep(skippingIfCancelled: self.handles.skipsWhenCancelled) }
        } else {
            Trampoline.run { self.runStep(skippingIfCancelled: false) }
        }
    }

    /// Runs the step with the source's result and settles with its outcome; skipped if cancelled meanwhile.
    @inlinable
    func runStep(skippingIfCancelled: Bool) {
        // The body is moved out bitwise and the source read without retaining it (it stays held until
        // `stepDone`): a copy would cost a retain and a release each.
        let body = withUnsafeMutablePointer(to: &self.body) { field in
            let taken = field.move()
            field.initialize(to: nil)
            return taken
        }
        guard let body, let result = source._withUnsafeGuaranteedRef({ $0.result }) else { return }
        let before = sourceUse.bitwiseOr(SourceUse.stepDone, ordering: .acquiringAndReleasing).oldValue
        if SourceUse.stepLetsGo(before) { source.release() }
        if skippingIfCancelled && !isPending { return }
        resolve(body.step(for: result))
    }

    /// The source, for the cancellation cascade, unless the step has already read it (the source is then
    /// settled, and cascading to it would change nothing).
    @inlinable
    override func takeCreationUpstream() -> (any PromiseNode)? {
        let before = sourceUse.bitwiseOr(SourceUse.cancelReading, ordering: .acquiringAndReleasing).oldValue
        if before & SourceUse.stepDone != 0 { return nil }
        let taken = source.takeUnretainedValue()
        let after = sourceUse.bitwiseOr(SourceUse.cancelDone, ordering: .acquiringAndReleasing).oldValue
        if after & SourceUse.stepDone != 0 { source.release() }
        return taken
    }

    deinit {
        // Once `stepDone` is set, the step or the canceller released the source (see ``SourceUse``).
        if sourceUse.load(ordering: .relaxed) & SourceUse.stepDone == 0 { source.release() }
    }
}

/// Who still reads a ``ChainedPromise``'s `source`: its step (always, once the source settled) and at most one
/// cancelling settler, maybe at the same time. Each marks the byte with atomic ors, and the reference the field
/// holds is released by whichever lets go of it last, so neither uses a released source:
/// - the step reads the source's result, then sets ``stepDone``; it releases the source unless a canceller has
///   set ``cancelReading`` but not yet ``cancelDone``;
/// - a canceller sets ``cancelReading``; if the step was already done it leaves the source alone, otherwise it
///   retains it, sets ``cancelDone`` and releases the field's reference if the step finished in between.
///
/// So once ``stepDone`` is set the field's reference has been (or is being) given back exactly once; without it,
/// the link's deinit gives it back.
@usableFromInline
enum SourceUse {
    @usableFromInline static let stepDone: UInt8 = 0b001
    @usableFromInline static let cancelReading: UInt8 = 0b010
    @usableFromInline static let cancelDone: UInt8 = 0b100

    /// Whether the step, seeing `before` when it set ``stepDone``, is the last to use the source.
    @inlinable
    static func stepLetsGo(_ before: UInt8) -> Bool {
        before & cancelReading == 0 || before & cancelDone != 0
    }
}
