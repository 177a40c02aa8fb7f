/// A promise fulfilled after `delay` on `scheduler`; cancelling it cancels the timer.
///
/// - Parameters:
///   - delay: How long to wait.
///   - scheduler: The clock; ``FlowDefaults/scheduler`` when `nil`.
/// - Returns: A `Promise<Void>`.
@available(
    *, noasync,
    message:
        "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
)
public func after(_ delay: Duration, on scheduler: (any FlowScheduler)? = nil) -> Promise<Void> {
    let (promise, resolver) = Promise<Void>.pending()
    let work = (scheduler ?? FlowDefaults.scheduler).schedule(after: delay) { resolver.fulfill() }
    resolver.onCancel { work.cancel() }
    return promise
}

extension Promise {
    /// Passes the value on `delay` after this promise fulfills (errors pass at once).
    ///
    /// - Parameters:
    ///   - delay: How long to hold the value.
    ///   - scheduler: The clock; ``FlowDefaults/scheduler`` when `nil`.
    /// - Returns: A promise of the same value, later.
    public func delay(_ delay: Duration, on scheduler: (any FlowScheduler)? = nil) -> Promise<Value> {
        then(on: .immediate) { value in after(delay, on: scheduler).map(on: .immediate) { value } }
    }

    /// Rejects with ``PromiseError/timedOut(after:)`` unless this promise settles within `duration`.
    ///
    /// On a timeout this promise is released — and cancelled if nothing else depends on it, which stops the
    /// underlying work through its cancellation handlers.
    ///
    /// - Parameters:
    ///   - duration: The time allowed.
    ///   - scheduler: The clock; ``FlowDefaults/scheduler`` when `nil`.
    /// - Returns: A promise settled like this one, or rejected on time-out.
    public func timeout(_ duration: Duration, on scheduler: (any FlowScheduler)? = nil) -> Promise<Value> {
        let child = DerivedPromise<Value>(upstream: self)
        let timer = (scheduler ?? FlowDefaults.scheduler).schedule(after: duration) {
            child.settle(.failure(PromiseError.timedOut(after: duration)), releasingUpstream: true)
        }
        child.addCancelHandler { timer.cancel() }
        subscribe { result in
            Trampoline.run {
                // The timer goes first: whoever sees the result (an `await` resuming on another thread) finds no
                // timer left. Cancelling one that already fired changes nothing; its timeout then wins the settle.
                timer.cancel()
                child.settle(result)
            }
        }
        return child
    }
}
