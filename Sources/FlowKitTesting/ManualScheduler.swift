import FlowKit

/// A ``FlowScheduler`` whose clock moves only when the test says so: time-dependent code, tested with no
/// real waiting.
///
/// Scheduled jobs run on the thread that advances the clock, in deadline order (ties in scheduling order).
/// Jobs scheduled while the clock advances run in the same call if they fall due within the window.
///
/// Async code sleeps on the scheduler from another task; ``waitForPendingWork(count:)`` suspends the test until
/// that sleep is registered, so the test advances the clock at exactly the right moment, deterministically.
public final class ManualScheduler: FlowScheduler {
    private struct Job {
        let id: Int
        let deadline: Duration
        let work: @Sendable () -> Void
    }

    private struct Waiter {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Duration = .zero
        var nextID = 0
        var jobs: [Job] = []
        var waiters: [Waiter] = []
        var executed = 0
    }

    private let state = LockedState(State())

    /// A scheduler whose clock reads zero.
    public init() {}

    /// The virtual time: zero at creation, moved only by ``advance(by:)``, ``advance(to:)`` and
    /// ``runUntilIdle(maxJobs:)``.
    public var now: Duration {
        state.withLock { $0.now }
    }

    /// How many jobs are waiting to run.
    public var pendingCount: Int {
        state.withLock { $0.jobs.count }
    }

    /// The earliest deadline among waiting jobs, if any.
    public var nextDeadline: Duration? {
        state.withLock { $0.jobs.map(\.deadline).min() }
    }

    /// How many jobs have run so far.
    public var executedCount: Int {
        state.withLock { $0.executed }
    }

    /// Registers `work` to run when the virtual clock reaches `now + delay`.
    ///
    /// - Parameters:
    ///   - delay: The wait; zero or negative runs at the next ``advance(by:)`` (even by zero).
    ///   - work: The job.
    /// - Returns: A handle that removes the job.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let (id, ready): (Int, [Waiter]) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.jobs.append(Job(id: id, deadline: state.now + max(delay, .zero), work: work))
            let count = state.jobs.count
            let ready = state.waiters.filter { $0.count <= count }
            state.waiters.removeAll { $0.count <= count }
            return (id, ready)
        }
        for waiter in ready { waiter.continuation.resume() }
        return ScheduledWork { [weak self] in
            self?.state.withLock { state in state.jobs.removeAll { $0.id == id } }
        }
    }

    /// Moves the clock forward by `duration`, running every job that falls due, in deadline order.
    ///
    /// - Parameter duration: How far to move (negative counts as zero).
    public func advance(by duration: Duration) {
        advance(to: now + max(duration, .zero))
    }

    /// Moves the clock to `deadline` (never backwards), running every job due by then, in deadline order.
    ///
    /// - Parameter deadline: The new time.
    public func advance(to deadline: Duration) {
        while let job = takeNextJob(dueBy: deadline) {
            job.work()
        }
        state.withLock { state in state.now = max(state.now, deadline) }
    }

    /// Runs every job, moving the clock to each deadline in turn, until none is left.
    ///
    /// - Parameter maxJobs: A bound, so a job that always schedules another cannot loop forever.
    /// - Returns: How many jobs ran.
    @discardableResult
    public func runUntilIdle(maxJobs: Int = 100_000) -> Int {
        var ran = 0
        while ran < maxJobs, let job = takeNextJob(dueBy: nil) {
            job.work()
            ran += 1
        }
        return ran
    }

    /// Suspends until at least `count` jobs are waiting — for example until a task under test has started
    /// sleeping on this scheduler. Returns at once if they already are.
    ///
    /// - Parameter count: How many waiting jobs to wait for.
    public func waitForPendingWork(count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let satisfied = state.withLock { state in
                guard state.jobs.count < count else { return true }
                state.waiters.append(Waiter(count: count, continuation: continuation))
                return false
            }
            if satisfied { continuation.resume() }
        }
    }

    /// Throws if any job is still waiting: a test that ends with a timer pending usually forgot to cancel it.
    ///
    /// - Throws: ``ManualSchedulerError/pendingWork(deadlines:)``.
    public func checkNoPendingWork() throws(ManualSchedulerError) {
        let deadlines = state.withLock { $0.jobs.map(\.deadline) }
        if !deadlines.isEmpty { throw .pendingWork(deadlines: deadlines.sorted()) }
    }

    private func takeNextJob(dueBy limit: Duration?) -> Job? {
        state.withLock { state in
            guard
                let index = state.jobs.indices.min(by: {
                    (state.jobs[$0].deadline, state.jobs[$0].id) < (state.jobs[$1].deadline, state.jobs[$1].id)
                })
            else { return nil }
            let job = state.jobs[index]
            if let limit, job.deadline > limit { return nil }
            state.jobs.remove(at: index)
            state.now = max(state.now, job.deadline)
            state.executed += 1
            return job
        }
    }
}

/// What ``ManualScheduler/checkNoPendingWork()`` reports.
public enum ManualSchedulerError: Error, Equatable, CustomStringConvertible {
    /// Jobs were still waiting, due at these virtual times.
    case pendingWork(deadlines: [Duration])

    /// A readable explanation.
    public var description: String {
        switch self {
        case .pendingWork(let deadlines): "\(deadlines.count) scheduled job(s) still pending, due at \(deadlines)"
        }
    }
}
