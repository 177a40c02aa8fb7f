/// The promise a chaining operator returns, which is also the continuation it registers on its source.
///
/// A link of a chain costs one allocation, this object: the derived promise holds the step itself, the closure
/// registered on the source captures only this object, and so does the job it submits; Swift uses a closure's
/// single captured object as its context, so neither closure allocates. The job reads the source's (settled,
/// immutable) result instead of carrying it.
///
/// `source` and `body` are set before this object is published (by `subscribe`, through the source's state word
/// or lock) and cleared by `runStep`, which runs once: the source settles once, so `sourceSettled` is called once
/// and submits one job. So a finished link keeps neither its closure nor its source.
@usableFromInline
final class ChainedPromise<In: Sendable, Out: Sendable>: Promise<Out>, @unchecked Sendable {
    // Safe: `executor` and `handles` are constants; `source` and `body` are touched only by `init` (before any
    // other thread can see this object) and by `runStep` (once, after the executor's hand-off), as above; so
    // the dynamic exclusivity checks on them (a tenth of a link's instructions) are redundant and off.
    @usableFromInline
    let executor: FlowExecutor
    @usableFromInline
    let handles: ChainHandles
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var source: Promise<In>?
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var body: ChainBody<In, Out>?

    @inlinable
    init(source: Promise<In>, executor: FlowExecutor, handles: ChainHandles, body: ChainBody<In, Out>) {
        self.executor = executor
        self.handles = handles
        self.source = source
        self.body = body
        super.init(upstream: source)
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
        let source = self.source
        let body = self.body
        self.source = nil
        self.body = nil
        guard let source, let body, let result = source.result else { return }
        if skippingIfCancelled && !isPending { return }
        resolve(body.step(for: result))
    }
}
