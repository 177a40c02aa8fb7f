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
    // Safe: `executor` and `handles` are constants. `body` is touched only by `init` (before any other thread can
    // see this object) and by `runStep` (once, after the executor's hand-off). `source` is written by `init`,
    // read by `runStep` and by a cancelling settler (`takeCreationUpstream`), possibly at the same time, and
    // cleared by whichever of the two lets go of it last, as `sourceUse` decides (see ``SourceUse``). So the
    // dynamic exclusivity checks on them (a tenth of a link's instructions) are redundant and off.
    // Declaration order keeps the object at most 120 bytes (glibc's fast bins) for word-sized values.
    @usableFromInline
    let executor: FlowExecutor
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var source: Promise<In>?
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
        self.source = source
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
        // The body is moved out bitwise (a copy would cost a retain and a release). The source is read with a
        // plain load: a canceller may read the field at the same moment, so this must be a read access, not the
        // modify access a pointer to the field would be.
        let body = withUnsafeMutablePointer(to: &self.body) { field in
            let taken = field.move()
            field.initialize(to: nil)
            return taken
        }
        guard let body, let result = source?.result else { return }
        let before = sourceUse.bitwiseOr(SourceUse.stepDone, ordering: .acquiringAndReleasing).oldValue
        if SourceUse.stepLetsGo(before) { source = nil }
        if skippingIfCancelled && !isPending { return }
        resolve(body.step(for: result))
    }

    /// The source, for the cancellation cascade, unless the step has already read it (the source is then
    /// settled, and cascading to it would change nothing).
    @inlinable
    override func takeCreationUpstream() -> (any PromiseNode)? {
        let before = sourceUse.bitwiseOr(SourceUse.cancelReading, ordering: .acquiringAndReleasing).oldValue
        if before & SourceUse.stepDone != 0 { return nil }
        let taken = source
        let after = sourceUse.bitwiseOr(SourceUse.cancelDone, ordering: .acquiringAndReleasing).oldValue
        if after & SourceUse.stepDone != 0 { source = nil }
        return taken
    }
}

/// Who still reads a ``ChainedPromise``'s `source`: its step (always, once the source settled) and at most one
/// cancelling settler, maybe at the same time. Each marks the byte with atomic ors, and the field is cleared
/// (releasing the source) by whichever lets go of it last, so neither reads a released reference:
/// - the step reads the source's result, then sets ``stepDone``; it clears the field unless a canceller has
///   set ``cancelReading`` but not yet ``cancelDone``;
/// - a canceller sets ``cancelReading``; if the step was already done it leaves the field alone, otherwise it
///   copies the reference, sets ``cancelDone`` and clears the field if the step finished in between.
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
