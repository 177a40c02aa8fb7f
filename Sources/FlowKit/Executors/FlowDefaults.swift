/// The process-wide defaults used when a call passes no executor or scheduler.
///
/// Change them once at start-up (an app may prefer the main queue for every continuation), or per test.
public enum FlowDefaults {
    private static let storage = LockedState(
        Storage(
            executor: .flowDefault,
            scheduler: DispatchScheduler(),
            unhandledRejection: UnhandledRejection.writeToStandardErrorInDebugBuilds
        )
    )

    private struct Storage: Sendable {
        var executor: FlowExecutor
        var scheduler: any FlowScheduler
        var unhandledRejection: @Sendable (UnhandledRejection) -> Void
    }

    /// The executor for continuations given no `on:`; initially ``FlowExecutor/flowDefault``.
    public static var executor: FlowExecutor {
        get { storage.withLock { $0.executor } }
        set { storage.withLock { $0.executor = newValue } }
    }

    /// The scheduler for delays, timeouts and back-off given no `on:`; initially a ``DispatchScheduler``.
    public static var scheduler: any FlowScheduler {
        get { storage.withLock { $0.scheduler } }
        set { storage.withLock { $0.scheduler = newValue } }
    }

    /// Receives every ``UnhandledRejection``: an error that reached `finally` with no `catch` before it.
    ///
    /// Initially one line on standard error in debug builds and nothing in release builds; an app may route
    /// the reports to its own diagnostics. It runs on the executor of the `finally` that saw the error.
    public static var unhandledRejection: @Sendable (UnhandledRejection) -> Void {
        get { storage.withLock { $0.unhandledRejection } }
        set { storage.withLock { $0.unhandledRejection = newValue } }
    }
}
