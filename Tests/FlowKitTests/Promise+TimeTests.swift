import Dispatch
import FlowKit
import FlowKitTesting
import Testing

@Suite struct PromiseTimeTests {
    @Test func afterFulfillsOnlyWhenTheClockReachesTheDelay() async throws {
        let scheduler = ManualScheduler()
        let timer: Promise<Void> = firstly { after(.seconds(2), on: scheduler) }
        scheduler.advance(by: .milliseconds(1999))
        #expect(timer.isPending)
        scheduler.advance(by: .milliseconds(1))
        try await timer.value
        try scheduler.checkNoPendingWork()
    }

    @Test func cancellingAfterCancelsItsTimer() async {
        let scheduler = ManualScheduler()
        let timer: Promise<Void> = firstly { after(.seconds(5), on: scheduler) }
        #expect(scheduler.pendingCount == 1)
        timer.cancel()
        #expect(scheduler.pendingCount == 0)
        #expect(await rejection(of: timer) is CancellationError)
    }

    @Test func delayHoldsTheValue() async throws {
        let scheduler = ManualScheduler()
        let delayed = Promise(value: 7).delay(.seconds(1), on: scheduler)
        #expect(delayed.isPending)
        scheduler.advance(by: .seconds(1))
        #expect(try await delayed.value == 7)
    }

    @Test func timeoutRejectsWhenTheClockPassesTheLimit() async throws {
        let scheduler = ManualScheduler()
        let (slow, _) = Promise<Int>.pending()
        let limited = slow.timeout(.seconds(30), on: scheduler)
        scheduler.advance(by: .seconds(29))
        #expect(limited.isPending)
        scheduler.advance(by: .seconds(1))
        #expect(await rejection(of: limited) as? PromiseError == .timedOut(after: .seconds(30)))
        try scheduler.checkNoPendingWork()
    }

    @Test func timeoutCancelsTheWorkItGaveUpOn() async {
        let scheduler = ManualScheduler()
        let stopped = Counter()
        let (slow, resolver) = Promise<Int>.pending()
        resolver.onCancel { stopped.increment() }
        let limited = slow.timeout(.seconds(1), on: scheduler)
        scheduler.advance(by: .seconds(1))
        _ = await rejection(of: limited)
        #expect(stopped.current == 1)
        #expect(slow.isRejected)
    }

    @Test func timeoutPassesAnEarlyResultAndCancelsItsTimer() async throws {
        let scheduler = ManualScheduler()
        let (fast, resolver) = Promise<Int>.pending()
        let limited = fast.timeout(.seconds(1), on: scheduler)
        resolver.fulfill(3)
        #expect(try await limited.value == 3)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func retryRetriesUntilSuccessWaitingTheBackoffBetweenAttempts() async throws {
        let scheduler = ManualScheduler()
        let attempts = Counter()
        let result: Promise<String> = firstly {
            retry(attempts: 5, backoff: .constant(.seconds(1)), on: scheduler) {
                attempts.increment() < 3 ? Promise<String>(error: TestError.boom) : Promise(value: "ok")
            }
        }
        #expect(attempts.current == 1)
        scheduler.advance(by: .milliseconds(999))
        #expect(attempts.current == 1)
        scheduler.advance(by: .milliseconds(1))
        #expect(attempts.current == 2)
        scheduler.advance(by: .seconds(1))
        #expect(try await result.value == "ok")
        #expect(attempts.current == 3)
    }

    @Test func retryGivesUpAfterTheLastAttemptWithTheLastError() async {
        let scheduler = ManualScheduler()
        let attempts = Counter()
        let result: Promise<Int> = firstly {
            retry(attempts: 3, backoff: .immediate, on: scheduler) { () -> Promise<Int> in
                Promise(error: TestError.numbered(attempts.increment()))
            }
        }
        scheduler.runUntilIdle()
        #expect(await rejection(of: result) as? TestError == .numbered(3))
    }

    @Test func retryWaitsGrowExponentially() {
        let scheduler = ManualScheduler()
        let times = Recorder<Duration>()
        let backoff = Backoff.exponential(initial: .seconds(1), multiplier: 2, maximum: .seconds(60), jitter: .none)
        _ = retry(attempts: 4, backoff: backoff, on: scheduler) { () -> Promise<Int> in
            times.append(scheduler.now)
            return Promise(error: TestError.boom)
        }
        scheduler.runUntilIdle()
        #expect(times.events == [.zero, .seconds(1), .seconds(3), .seconds(7)])
    }

    /// A yes/no `retry` of up to five attempts that each reject with `error`: its rejection and the attempts made.
    func yesNoRetry(
        failingWith error: any Error, while shouldRetry: @escaping @Sendable (any Error) -> Bool
    ) async -> (rejection: (any Error)?, attempts: Int) {
        let attempts = Counter()
        let result: Promise<Int> = firstly {
            retry(
                attempts: 5, backoff: .immediate, on: ManualScheduler(),
                { () -> Promise<Int> in
                    attempts.increment()
                    return Promise(error: error)
                }, while: shouldRetry)
        }
        return (await rejection(of: result), attempts.current)
    }

    @Test func retryStopsWhenThePredicateSaysSo() async {
        let (error, attempts) = await yesNoRetry(failingWith: TestError.numbered(400)) { error in
            (error as? TestError) != .numbered(400)
        }
        #expect(error as? TestError == .numbered(400))
        #expect(attempts == 1)
    }

    @Test func retryWithAYesNoPredicateNeverRetriesACancellation() async {
        let (error, attempts) = await yesNoRetry(failingWith: CancellationError()) { _ in true }
        #expect(error is CancellationError)
        #expect(attempts == 1)
    }

    @Test func retryHonoursAnExplicitRetryAfter() {
        let scheduler = ManualScheduler()
        let times = Recorder<Duration>()
        _ = retry(
            attempts: 2, backoff: .constant(.seconds(1)), on: scheduler,
            { () -> Promise<Int> in
                times.append(scheduler.now)
                return Promise(error: TestError.boom)
            }, while: { _, _ in .retryAfter(.seconds(42)) })
        scheduler.runUntilIdle()
        #expect(times.events == [.zero, .seconds(42)])
    }

    @Test func retryRejectsAnAttemptCountBelowOne() async {
        let result: Promise<Int> = firstly { retry(attempts: 0) { Promise(value: 1) } }
        #expect(await rejection(of: result) as? PromiseError == .invalidAttemptCount(0))
    }

    @Test func cancellingARetryStopsTheWaitAndTheNextAttempt() async {
        let scheduler = ManualScheduler()
        let attempts = Counter()
        let result: Promise<Int> = firstly {
            retry(attempts: 5, backoff: .constant(.seconds(1)), on: scheduler) {
                () -> Promise<Int> in
                attempts.increment()
                return Promise(error: TestError.boom)
            }
        }
        #expect(scheduler.pendingCount == 1)
        result.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.runUntilIdle()
        #expect(attempts.current == 1)
        #expect(await rejection(of: result) is CancellationError)
    }

    @Test func cancellingARetryCancelsTheAttemptUnderWay() async {
        let stopped = Counter()
        let result: Promise<Int> = firstly {
            retry(attempts: 3, on: ManualScheduler()) {
                Promise<Int> { resolver in resolver.onCancel { stopped.increment() } }
            }
        }
        result.cancel()
        #expect(stopped.current == 1)
        #expect(await rejection(of: result) is CancellationError)
    }

    /// The retry is cancelled while an attempt's body runs, before the attempt is stored: the attempt the body
    /// returns is cancelled all the same. The order is forced: the second attempt starts on `failing`'s thread
    /// when the first is rejected there, and its body waits until the retry is cancelled.
    @Test(.timeLimit(.minutes(1)))
    func cancellingARetryWhileAnAttemptStartsCancelsThatAttempt() async {
        let stopped = Counter()
        let (first, firstResolver) = Promise<Int>.pending()
        let (second, secondResolver) = Promise<Int>.pending()
        secondResolver.onCancel { stopped.increment() }
        let (started, startedResolver) = Promise<Void>.pending()
        let cancelled = DispatchSemaphore(value: 0)
        let attempts = Counter()
        let result: Promise<Int> = firstly {
            retry(attempts: 2, backoff: .immediate, on: ManualScheduler()) { () -> Promise<Int> in
                guard attempts.increment() == 2 else { return first }
                startedResolver.fulfill()
                _ = cancelled.wait(timeout: .now() + 50)
                return second
            }
        }
        let failing = DispatchQueue(label: "PromiseTimeTests.failing")
        failing.async { firstResolver.reject(TestError.boom) }
        _ = await started.settled
        result.cancel()
        cancelled.signal()
        #expect(await rejection(of: result) is CancellationError)
        // The second attempt's start has returned once the queue runs a later job.
        failing.sync {}
        #expect(await rejection(of: second) is CancellationError)
        #expect(stopped.current == 1)
    }

    @Test func aRetryWhoseTimerFiredBeforeItWasStoredIsReleasedWhenItSettles() throws {
        weak var weakTracked: Tracked?
        let scheduler = ImmediateRetainingScheduler()
        do {
            let tracked = Tracked()
            weakTracked = tracked
            let attempts = Counter()
            let result: Promise<Int> = firstly {
                retry(attempts: 3, backoff: .constant(.milliseconds(5)), on: scheduler) {
                    withExtendedLifetime(tracked) {
                        attempts.increment() < 2 ? Promise(error: TestError.boom) : Promise(value: 7)
                    }
                }
            }
            #expect(try result.result?.get() == 7)
        }
        #expect(scheduler.handlesMade == 1)
        #expect(weakTracked == nil)  // the run (and the body it holds) is gone with its promise
    }

    @Test func aCancelledRetryIsReleasedThoughItsCancelledTimerKeepsItsJob() {
        weak var weakTracked: Tracked?
        let scheduler = ManualScheduler()
        let keeper = RetainingScheduler(wrapping: scheduler)
        do {
            let tracked = Tracked()
            weakTracked = tracked
            let result: Promise<Int> = firstly {
                retry(attempts: 3, backoff: .constant(.seconds(1)), on: keeper) {
                    withExtendedLifetime(tracked) { Promise(error: TestError.boom) }
                }
            }
            #expect(scheduler.pendingCount == 1)
            result.cancel()
        }
        #expect(weakTracked == nil)
        withExtendedLifetime(keeper) {}
    }

    @Test func seededJitterMakesRetryWaitsReproducible() {
        func waits(seed: UInt64) -> [Duration] {
            let scheduler = ManualScheduler()
            let times = Recorder<Duration>()
            _ = retry(
                attempts: 4, backoff: .exponential(initial: .seconds(1)), jitterSource: .seeded(seed), on: scheduler
            ) { () -> Promise<Int> in
                times.append(scheduler.now)
                return Promise(error: TestError.boom)
            }
            scheduler.runUntilIdle()
            return times.events
        }
        #expect(waits(seed: 1) == waits(seed: 1))
        #expect(waits(seed: 1) != waits(seed: 2))
    }
}

@Suite struct BackoffTests {
    @Test func exponentialBackoffGrowsAndIsCapped() {
        let backoff = Backoff.exponential(
            initial: .milliseconds(100), multiplier: 2, maximum: .seconds(1), jitter: .none)
        let waits = (1...6).map { backoff.delay(beforeRetry: $0, randomUnit: 0.5) }
        #expect(
            waits == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1),
                .seconds(1),
            ])
    }

    @Test func fullJitterSpreadsBetweenZeroAndTheWait() {
        let backoff = Backoff.exponential(initial: .seconds(2), jitter: .full)
        #expect(backoff.delay(beforeRetry: 1, randomUnit: 0) == .zero)
        #expect(backoff.delay(beforeRetry: 1, randomUnit: 0.5) == .seconds(1))
    }

    @Test func equalJitterKeepsAtLeastHalfTheWait() {
        let backoff = Backoff.constant(.seconds(2), jitter: .equal)
        #expect(backoff.delay(beforeRetry: 3, randomUnit: 0) == .seconds(1))
        #expect(backoff.delay(beforeRetry: 3, randomUnit: 1) == .seconds(2))
    }

    @Test func proportionalJitterStaysWithinItsBandAndTheCap() {
        let backoff = Backoff(initial: .seconds(10), multiplier: 1, maximum: .seconds(10), jitter: .proportional(0.2))
        #expect(backoff.delay(beforeRetry: 1, randomUnit: 0) == .seconds(8))
        #expect(backoff.delay(beforeRetry: 1, randomUnit: 1) == .seconds(10))
    }

    @Test func nonsenseInputsAreClamped() {
        let backoff = Backoff(initial: .seconds(-1), multiplier: .nan, maximum: .seconds(-5), jitter: .none)
        #expect(backoff.delay(beforeRetry: 100, randomUnit: .infinity) == .zero)
        #expect(Backoff.exponential(jitter: .none).delay(beforeRetry: 10_000, randomUnit: 0) == .seconds(30))
    }
}

@Suite struct ManualSchedulerTests {
    @Test func runsJobsInDeadlineOrderThenSchedulingOrder() {
        let scheduler = ManualScheduler()
        let order = Recorder<String>()
        _ = scheduler.schedule(after: .seconds(2)) { order.append("b") }
        _ = scheduler.schedule(after: .seconds(1)) { order.append("a") }
        _ = scheduler.schedule(after: .seconds(2)) { order.append("c") }
        scheduler.advance(by: .seconds(2))
        #expect(order.events == ["a", "b", "c"])
        #expect(scheduler.now == .seconds(2))
    }

    @Test func runsJobsScheduledDuringAnAdvanceWhenTheyFallDueInTheWindow() {
        let scheduler = ManualScheduler()
        let order = Recorder<Duration>()
        _ = scheduler.schedule(after: .seconds(1)) {
            order.append(scheduler.now)
            _ = scheduler.schedule(after: .seconds(1)) { order.append(scheduler.now) }
        }
        scheduler.advance(by: .seconds(5))
        #expect(order.events == [.seconds(1), .seconds(2)])
        #expect(scheduler.now == .seconds(5))
    }

    @Test func cancelledJobsNeverRun() throws {
        let scheduler = ManualScheduler()
        let ran = Counter()
        let job = scheduler.schedule(after: .seconds(1)) { ran.increment() }
        job.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(ran.current == 0)
        try scheduler.checkNoPendingWork()
    }

    @Test func checkNoPendingWorkReportsWhatIsLeft() {
        let scheduler = ManualScheduler()
        _ = scheduler.schedule(after: .seconds(3)) {}
        #expect(throws: ManualSchedulerError.pendingWork(deadlines: [.seconds(3)])) {
            try scheduler.checkNoPendingWork()
        }
    }

    @Test func runUntilIdleIsBoundedForJobsThatRescheduleForever() {
        let scheduler = ManualScheduler()
        @Sendable func forever() { _ = scheduler.schedule(after: .seconds(1), forever) }
        forever()
        #expect(scheduler.runUntilIdle(maxJobs: 50) == 50)
        #expect(scheduler.now == .seconds(50))
    }

    @Test func waitForPendingWorkResumesOnceATaskSleeps() async throws {
        let scheduler = ManualScheduler()
        let task = Task { try await after(.seconds(3), on: scheduler) }
        await scheduler.waitForPendingWork()
        #expect(scheduler.nextDeadline == .seconds(3))
        scheduler.advance(by: .seconds(3))
        try await task.value
    }
}

/// A scheduler that runs each job before `schedule` returns — as a timer on another thread may fire before its
/// maker stores the handle — and whose handle keeps the job, as a dispatch work item keeps its block.
private final class ImmediateRetainingScheduler: FlowScheduler {
    private let made = LockedState(0)

    var now: Duration { .zero }

    var handlesMade: Int { made.withLock { $0 } }

    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        made.withLock { $0 += 1 }
        work()
        return ScheduledWork { withExtendedLifetime(work) {} }
    }
}

/// Another scheduler's jobs, with handles that keep their job after a cancel, as a dispatch work item does.
private final class RetainingScheduler: FlowScheduler {
    private let base: ManualScheduler

    init(wrapping base: ManualScheduler) {
        self.base = base
    }

    var now: Duration { base.now }

    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let handle = base.schedule(after: delay, work)
        return ScheduledWork {
            handle.cancel()
            withExtendedLifetime(work) {}
        }
    }
}
