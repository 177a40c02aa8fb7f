/// The clock behind every delay, timeout and retry back-off in FlowKit.
///
/// Production code uses ``DispatchScheduler``; tests use `ManualScheduler` from `FlowKitTesting`, whose clock
/// moves only when the test advances it, so time-dependent behaviour is checked with no real waiting.
///
/// Conform your own type to drive FlowKit's time from another clock.
public protocol FlowScheduler: Sendable {
    /// The scheduler's current time, measured from an arbitrary fixed origin; never decreases.
    var now: Duration { get }

    /// Runs `work` once, `delay` from now (at once for a zero or negative delay), unless cancelled first.
    ///
    /// - Parameters:
    ///   - delay: How long to wait.
    ///   - work: The job; it runs on a thread of the scheduler's choosing and must not block.
    /// - Returns: A handle whose ``ScheduledWork/cancel()`` stops the job if it has not started.
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork
}

/// A job waiting on a ``FlowScheduler``, which can be cancelled before it runs.
public struct ScheduledWork: Sendable {
    private let onCancel: @Sendable () -> Void

    /// Wraps the action that cancels the job; schedulers call this, users receive the result.
    ///
    /// - Parameter cancel: Stops the job if it has not started; must be safe to call more than once.
    public init(cancel: @escaping @Sendable () -> Void) {
        onCancel = cancel
    }

    /// Stops the job if it has not started yet; harmless afterwards.
    public func cancel() {
        onCancel()
    }
}

extension FlowScheduler {
    /// Suspends the current task for `delay` on this scheduler's clock.
    ///
    /// - Parameter delay: How long to wait.
    /// - Throws: `CancellationError` as soon as the task is cancelled (the timer is cancelled too).
    public func sleep(for delay: Duration) async throws {
        try await firstly { after(delay, on: self) }.value
    }
}
