import Dispatch
import FlowKit
import FlowKitTesting
import Testing

@Suite struct CancellationTests {
    @Test func cancellingAPendingPromiseRejectsItWithCancellationError() async {
        let (promise, _) = Promise<Int>.pending()
        promise.cancel()
        #expect(await rejection(of: promise) is CancellationError)
    }

    @Test func pendingDownstreamStepsRejectAndTheirBodiesNeverRun() async {
        let ran = Counter()
        let (root, _) = Promise<Int>.pending()
        let end = root.map { value -> Int in
            ran.increment()
            return value
        }.done { _ in ran.increment() }
        root.cancel()
        #expect(await rejection(of: end) is CancellationError)
        #expect(ran.current == 0)
    }

    @Test func cancellingTheEndOfAChainCancelsItsStartAndRunsTheCancelHandler() async {
        let stopped = Counter()
        let (root, resolver) = Promise<Int>.pending()
        resolver.onCancel { stopped.increment() }
        let end = root.map { $0 + 1 }.then { Promise(value: $0 * 2) }
        end.cancel()
        #expect(stopped.current == 1)
        #expect(root.isRejected)
        #expect(await rejection(of: end) is CancellationError)
    }

    @Test func aSharedUpstreamIsCancelledOnlyWhenEveryDependentIsCancelled() {
        let stopped = Counter()
        let (root, resolver) = Promise<Int>.pending()
        resolver.onCancel { stopped.increment() }
        let first = root.map(on: .immediate) { $0 }
        let second = root.map(on: .immediate) { $0 }
        first.cancel()
        #expect(stopped.current == 0 && root.isPending)
        second.cancel()
        #expect(stopped.current == 1 && root.isRejected)
    }

    @Test func aCancelledPromisesContinuationsRunAfterTheCancelHandlersOfTheWorkItCameFrom() {
        let events = Recorder<String>()
        let (root, resolver) = Promise<Int>.pending()
        resolver.onCancel { events.append("root stopped") }
        let derived = root.map(on: .immediate) { $0 + 1 }
        derived.catch(on: .immediate, policy: .allErrors) { _ in events.append("derived rejected") }
        derived.cancel()
        #expect(events.events == ["root stopped", "derived rejected"])
    }

    @Test func aWhenFailingFastStopsItsOtherInputsBeforeItsContinuationsRun() {
        let events = Recorder<String>()
        let (slow, slowResolver) = Promise<Int>.pending()
        slowResolver.onCancel { events.append("slow input stopped") }
        let (failing, failingResolver) = Promise<Int>.pending()
        when(fulfilled: [slow, failing]).catch(on: .immediate) { _ in events.append("when rejected") }
        failingResolver.reject(TestError.boom)
        #expect(events.events == ["slow input stopped", "when rejected"])
    }

    @Test func cancellingAfterSettlementDoesNothing() throws {
        let stopped = Counter()
        let (promise, resolver) = Promise<Int>.pending()
        resolver.onCancel { stopped.increment() }
        resolver.fulfill(1)
        promise.cancel()
        #expect(try promise.result?.get() == 1)
        #expect(stopped.current == 0)
    }

    @Test func aCancelHandlerAddedAfterCancellationRunsAtOnce() {
        let stopped = Counter()
        let (promise, resolver) = Promise<Int>.pending()
        promise.cancel()
        resolver.onCancel { stopped.increment() }
        #expect(stopped.current == 1)
        #expect(resolver.isCancelled)
    }

    @Test func cancellingAThenWhoseBodyIsRunningCancelsThePromiseTheBodyReturned() async {
        let stopped = Counter()
        let (started, startedResolver) = Promise<Void>.pending()
        let end = Promise(value: 1).then { _ in
            Promise<Int> { resolver in
                resolver.onCancel { stopped.increment() }
                startedResolver.fulfill()
            }
        }
        _ = await started.settled
        end.cancel()
        #expect(await rejection(of: end) is CancellationError)
        #expect(stopped.current == 1)
    }

    /// A `then` on `steps` whose body returns `returned`, cancelled after the body started and before it returns
    /// (the other order of the test above, forced); returns once the body has returned and the chain has linked
    /// (or not) the promise it returned.
    private static func cancelThenBeforeItsBodyReturns(_ returned: Promise<Int>) async -> Promise<Int> {
        let steps = DispatchQueue(label: "CancellationTests.steps")
        let (started, startedResolver) = Promise<Void>.pending()
        let cancelled = DispatchSemaphore(value: 0)
        let end = Promise(value: 1).then(on: .queue(steps)) { _ in
            startedResolver.fulfill()
            _ = cancelled.wait(timeout: .now() + 50)
            return returned
        }
        _ = await started.settled
        end.cancel()
        cancelled.signal()
        // The step, and the linking that follows its body, have run once the queue runs a later job.
        steps.sync {}
        return end
    }

    /// The chain was cancelled before the promise its body returns was linked to it: that promise is cancelled
    /// then.
    @Test(.timeLimit(.minutes(1)))
    func cancellingAThenBeforeItsBodyReturnsCancelsThePromiseTheBodyReturns() async {
        let stopped = Counter()
        let (returned, returnedResolver) = Promise<Int>.pending()
        returnedResolver.onCancel { stopped.increment() }
        let end = await Self.cancelThenBeforeItsBodyReturns(returned)
        #expect(await rejection(of: end) is CancellationError)
        #expect(await rejection(of: returned) is CancellationError)
        #expect(stopped.current == 1)
    }

    /// As above, but the promise the body returns has another dependent: like the cancellation cascade, the
    /// cancelled chain lets go of it without cancelling it.
    @Test(.timeLimit(.minutes(1)))
    func aPromiseTheBodyReturnsThatOthersDependOnIsNotCancelledWithTheChain() async throws {
        let stopped = Counter()
        let (returned, returnedResolver) = Promise<Int>.pending()
        returnedResolver.onCancel { stopped.increment() }
        let other = returned.map(on: .immediate) { $0 + 1 }
        let end = await Self.cancelThenBeforeItsBodyReturns(returned)
        #expect(await rejection(of: end) is CancellationError)
        #expect(returned.isPending)
        #expect(stopped.current == 0)
        returnedResolver.fulfill(1)
        #expect(try await other.value == 2)
    }

    @Test func cancellationReachesAPromiseResolvedWithAnother() {
        let stopped = Counter()
        let (outer, outerResolver) = Promise<Int>.pending()
        let (inner, innerResolver) = Promise<Int>.pending()
        innerResolver.onCancel { stopped.increment() }
        outerResolver.resolve(with: inner)
        outer.cancel()
        #expect(stopped.current == 1 && inner.isRejected)
    }

    @Test func cancellingAVeryLongChainFromItsEndUnwindsWithoutRecursion() {
        let stopped = Counter()
        let (root, resolver) = Promise<Int>.pending()
        resolver.onCancel { stopped.increment() }
        var end = root
        for _ in 0..<200_000 { end = end.map(on: .immediate) { $0 } }
        end.cancel()
        #expect(stopped.current == 1)
    }

    @Test func whenCancelledCancelsEveryInput() {
        let stopped = Counter()
        let inputs = (0..<3).map { _ in
            Promise<Int> { resolver in resolver.onCancel { stopped.increment() } }
        }
        when(fulfilled: inputs).cancel()
        #expect(stopped.current == 3)
    }

    @Test func raceCancelledCancelsEveryContestant() {
        let stopped = Counter()
        let inputs = (0..<2).map { _ in Promise<Int> { resolver in resolver.onCancel { stopped.increment() } } }
        race(inputs).cancel()
        #expect(stopped.current == 2)
    }

    @Test func cancellingATimeoutCancelsItsTimerAndTheWork() {
        let scheduler = ManualScheduler()
        let stopped = Counter()
        let work = Promise<Int> { resolver in resolver.onCancel { stopped.increment() } }
        let limited = work.timeout(.seconds(9), on: scheduler)
        limited.cancel()
        #expect(stopped.current == 1)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancellingTheTaskAwaitingAPromiseCancelsThePromise() async {
        let stopped = Counter()
        let (promise, resolver) = Promise<Int>.pending()
        resolver.onCancel { stopped.increment() }
        let waiter = Task { try await promise.value }
        waiter.cancel()
        let outcome = await waiter.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        _ = await promise.settled
        #expect(stopped.current == 1)
    }

    @Test func cancellingAPromiseMadeFromAsyncWorkCancelsTheTask() async {
        let (entered, enteredResolver) = Promise<Void>.pending()
        let sawCancellation = Counter()
        let promise = Promise<Int> {
            enteredResolver.fulfill()
            do {
                try await after(.seconds(60), on: ManualScheduler())
            } catch is CancellationError {
                sawCancellation.increment()
                throw CancellationError()
            }
            return 1
        }
        _ = await entered.settled
        promise.cancel()
        #expect(await rejection(of: promise) is CancellationError)
        while sawCancellation.current == 0 { await Task.yield() }
        #expect(sawCancellation.current == 1)
    }
}

@Suite struct CancellationCleanupTests {
    @Test func ensureRunsWhenTheCancellationStartsBelowIt() async {
        let cleanedUp = Counter()
        let (work, _) = Promise<Int>.pending()
        let end = work.ensure { cleanedUp.increment() }.map { $0 + 1 }
        end.cancel()
        #expect(await rejection(of: end) is CancellationError)
        let (ensured, resolver) = Promise<Void>.pending()
        work.finally { resolver.fulfill() }
        _ = await ensured.settled
        #expect(cleanedUp.current == 1)
    }

    @Test func tapSeesACancellationThatStartedBelowIt() {
        let seen = Recorder<Bool>()
        let (work, _) = Promise<Int>.pending()
        let end = work.tap(on: .immediate) { result in
            if case .failure(let error) = result { seen.append(error.isCancellation) }
        }.map(on: .immediate) { $0 }
        end.cancel()
        #expect(seen.events == [true])
    }
}

/// Cancelling the result of each remaining combinator reaches its inputs and timers.
@Suite struct CombinatorCancellationTests {
    private func cancellableInputs(_ count: Int, stopped: Counter) -> [Promise<Int>] {
        (0..<count).map { _ in Promise<Int> { resolver in resolver.onCancel { stopped.increment() } } }
    }

    @Test func cancellingWhenResolvedCancelsEveryInput() {
        let stopped = Counter()
        when(resolved: cancellableInputs(3, stopped: stopped)).cancel()
        #expect(stopped.current == 3)
    }

    @Test func cancellingAnyCancelsEveryInput() {
        let stopped = Counter()
        any(cancellableInputs(2, stopped: stopped)).cancel()
        #expect(stopped.current == 2)
    }

    @Test func cancellingATupleWhenCancelsBothInputs() {
        let stopped = Counter()
        let inputs = cancellableInputs(2, stopped: stopped)
        when(fulfilled: inputs[0], inputs[1].map(on: .immediate) { "\($0)" }).cancel()
        #expect(stopped.current == 2)
    }

    @Test func cancellingADelayCancelsItsTimer() {
        let scheduler = ManualScheduler()
        let delayed = Promise(value: 1).delay(.seconds(5), on: scheduler)
        #expect(scheduler.pendingCount == 1)
        delayed.cancel()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancellingASequentialReductionStopsTheStepUnderWayAndSkipsTheRest() async {
        let stopped = Counter()
        let started = Recorder<Int>()
        let total = reduceSequentially(1...3, 0, on: .immediate) { sum, item in
            started.append(item)
            return Promise<Int> { resolver in resolver.onCancel { stopped.increment() } }
        }
        total.cancel()
        #expect(await rejection(of: total) is CancellationError)
        #expect(started.events == [1])
        #expect(stopped.current == 1)
    }
}
