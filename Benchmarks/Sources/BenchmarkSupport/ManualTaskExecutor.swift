import FlowKit

/// A task executor driven by hand: a job enqueued on it runs only inside ``runUntilIdle()``, on the thread that
/// calls it, in the order the jobs were enqueued.
///
/// It makes an `await` that really suspends measurable without depending on scheduling: a task started with this
/// executor as its preference runs until it suspends, the benchmark then resumes it (for example by fulfilling the
/// promise it awaits) and runs it again. Which thread runs what, and whether the `await` suspends, are fixed, so
/// the malloc count of such a round trip is the same in every run and can be gated.
///
/// - Note: `Sendable`: the only state is the job queue, kept in a `LockedState`.
public final class ManualTaskExecutor: TaskExecutor, Sendable {
    private let jobs = LockedState<[UnownedJob]>([])

    /// Creates an executor with no jobs.
    public init() {}

    /// Keeps `job` until the next ``runUntilIdle()``.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
    }

    /// Runs every enqueued job, and every job they enqueue, until none is left.
    public func runUntilIdle() {
        while let job = nextJob() {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    private func nextJob() -> UnownedJob? {
        jobs.withLock { queue in queue.isEmpty ? nil : queue.removeFirst() }
    }
}
