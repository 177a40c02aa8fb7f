/// What `retry` should do after a failed attempt.
public enum RetryDecision: Sendable, Equatable {
    /// Retry after the back-off's wait.
    case retry
    /// Retry after exactly this wait (a server's `Retry-After`), ignoring the back-off.
    case retryAfter(Duration)
    /// Give up and reject with the error.
    case stop
}

/// Runs `body` until it fulfills, at most `attempts` times, waiting between attempts by `backoff`.
///
/// Every attempt calls `body` again, so each gets fresh resources (a new request, a new stream). Cancelling
/// the returned promise cancels the attempt under way or the wait before the next one.
///
/// - Parameters:
///   - attempts: The most attempts, the first included (at least 1).
///   - backoff: The waits between attempts.
///   - jitterSource: The random numbers for the jitter (seed it in tests).
///   - scheduler: The clock; ``FlowDefaults/scheduler`` when `nil`.
///   - body: Starts one attempt.
///   - shouldRetry: Decides after each failure (given the error and the 1-based attempt that failed);
///     by default every error but cancellation is retried.
/// - Returns: The first fulfilled attempt's value, or the last error.
@available(
    *, noasync,
    message:
        "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
)
public func retry<Value: Sendable>(
    attempts: Int,
    backoff: Backoff = .exponential(),
    jitterSource: JitterSource = .system,
    on scheduler: (any FlowScheduler)? = nil,
    _ body: @escaping @Sendable () throws -> Promise<Value>,
    while shouldRetry: @escaping @Sendable (_ error: any Error, _ attempt: Int) -> RetryDecision =
        RetryDecision.unlessCancelled
) -> Promise<Value> {
    retryPromise(
        attempts: attempts, backoff: backoff, jitterSource: jitterSource, scheduler: scheduler, body: body,
        shouldRetry: shouldRetry)
}

/// The promise form of `retry`, shared by the promise API and the async overloads that take a promise body.
func retryPromise<Value: Sendable>(
    attempts: Int,
    backoff: Backoff,
    jitterSource: JitterSource,
    scheduler: (any FlowScheduler)?,
    body: @escaping @Sendable () throws -> Promise<Value>,
    shouldRetry: @escaping @Sendable (any Error, Int) -> RetryDecision
) -> Promise<Value> {
    guard attempts >= 1 else { return Promise(error: PromiseError.invalidAttemptCount(attempts)) }
    let plan = RetryPlan(attempts: attempts, backoff: backoff, jitterSource: jitterSource, shouldRetry: shouldRetry)
    let run = RetryRun(plan: plan, scheduler: scheduler ?? FlowDefaults.scheduler, body: body)
    run.start(attempt: 1)
    return run.promise
}

/// ``retry(attempts:backoff:jitterSource:on:_:while:)`` with a yes/no predicate: `true` retries after the
/// back-off's wait.
///
/// - Parameters:
///   - attempts: The most attempts, the first included (at least 1).
///   - backoff: The waits between attempts.
///   - jitterSource: The random numbers for the jitter.
///   - scheduler: The clock; ``FlowDefaults/scheduler`` when `nil`.
///   - body: Starts one attempt.
///   - shouldRetry: Whether to retry after this error (cancellation is never retried).
/// - Returns: The first fulfilled attempt's value, or the last error.
@available(
    *, noasync,
    message:
        "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
)
public func retry<Value: Sendable>(
    attempts: Int,
    backoff: Backoff = .exponential(),
    jitterSource: JitterSource = .system,
    on scheduler: (any FlowScheduler)? = nil,
    _ body: @escaping @Sendable () throws -> Promise<Value>,
    while shouldRetry: @escaping @Sendable (_ error: any Error) -> Bool
) -> Promise<Value> {
    retry(
        attempts: attempts, backoff: backoff, jitterSource: jitterSource, on: scheduler, body,
        while: RetryDecision.when(shouldRetry))
}

/// The state of one `retry` call: the attempt under way or the timer before the next one.
private final class RetryRun<Value: Sendable>: Sendable {
    let promise: Promise<Value>
    private let resolver: Resolver<Value>
    private let plan: RetryPlan
    private let scheduler: any FlowScheduler
    private let body: @Sendable () throws -> Promise<Value>
    /// The attempt under way or the timer before attempt `number`; `number` tells a timer that fired before it
    /// was stored (a scheduler may run the job on another thread at once) from the wait it was made for.
    private let current = LockedState<Step>(Step(number: 1, attempt: nil, timer: nil))

    private struct Step {
        var number: Int
        var attempt: Promise<Value>?
        var timer: ScheduledWork?
    }

    init(plan: RetryPlan, scheduler: any FlowScheduler, body: @escaping @Sendable () throws -> Promise<Value>) {
        (promise, resolver) = Promise<Value>.pending()
        self.plan = plan
        self.scheduler = scheduler
        self.body = body
        resolver.onCancel { [self] in
            let (attempt, timer) = takeWork()
            timer?.cancel()
            if let attempt { Promise<Value>.withdraw(from: attempt) }
        }
    }

    /// Empties the state: a cancelled timer still holds its job, and the job holds this run.
    private func takeWork() -> (attempt: Promise<Value>?, timer: ScheduledWork?) {
        current.withLock { step in
            defer { (step.attempt, step.timer) = (nil, nil) }
            return (step.attempt, step.timer)
        }
    }

    func start(attempt number: Int) {
        guard promise.isPending else { return }
        let attempt = firstly(body)
        current.withLock { $0 = Step(number: number, attempt: attempt, timer: nil) }
        attempt.subscribe { [self] result in
            Trampoline.run { self.finished(attempt: number, with: result) }
        }
        // Cancelled while `body` ran, before the attempt was stored: the cancel handler found nothing to stop, so
        // the attempt is withdrawn from here (whichever takes it from the state withdraws once).
        if !promise.isPending, let attempt = takeWork().attempt { Promise<Value>.withdraw(from: attempt) }
    }

    private func finished(attempt number: Int, with result: Result<Value, any Error>) {
        switch result {
        case .success(let value):
            resolver.fulfill(value)
        case .failure(let error):
            guard promise.isPending else { return }
            guard let wait = plan.waitBeforeRetry(after: error, attempt: number) else {
                resolver.reject(error)
                return
            }
            guard wait > .zero else {
                Trampoline.run { [self] in start(attempt: number + 1) }
                return
            }
            current.withLock { $0 = Step(number: number + 1, attempt: nil, timer: nil) }
            let timer = scheduler.schedule(after: wait) { [self] in start(attempt: number + 1) }
            // Kept only while it still waits: a timer that already fired holds this run through its job (a
            // dispatch work item keeps its block), so storing it then would make a cycle that outlives the retry.
            let stored = current.withLock { step in
                guard step.number == number + 1, step.attempt == nil else { return false }
                step.timer = timer
                return true
            }
            if stored, !promise.isPending { takeWork().timer?.cancel() }
        }
    }
}
