/// One `retry` call's rules — how many attempts, which errors, how long to wait — shared by the promise form
/// and its async twin so that both decide exactly alike.
struct RetryPlan: Sendable {
    let attempts: Int
    let backoff: Backoff
    let jitterSource: JitterSource
    let shouldRetry: @Sendable (any Error, Int) -> RetryDecision

    /// The wait before the next attempt after `attempt` (1-based) failed with `error`, or `nil` to give up.
    func waitBeforeRetry(after error: any Error, attempt: Int) -> Duration? {
        guard attempt < attempts else { return nil }
        switch shouldRetry(error, attempt) {
        case .stop: return nil
        case .retry: return backoff.delay(beforeRetry: attempt, randomUnit: jitterSource.nextUnit())
        case .retryAfter(let delay): return max(delay, .zero)
        }
    }
}

extension RetryDecision {
    /// The default decision of every `retry`: retry any error except cancellation.
    public static let unlessCancelled: @Sendable (_ error: any Error, _ attempt: Int) -> RetryDecision = { error, _ in
        error is CancellationError ? .stop : .retry
    }

    /// The decision of a yes/no predicate, as the yes/no `retry` overloads take it: retry after the back-off's wait
    /// when `shouldRetry` says so, but never after cancellation.
    static func when(
        _ shouldRetry: @escaping @Sendable (_ error: any Error) -> Bool
    ) -> @Sendable (_ error: any Error, _ attempt: Int) -> RetryDecision {
        { error, _ in !(error is CancellationError) && shouldRetry(error) ? .retry : .stop }
    }
}
