import FlowKit
import Foundation
import OperationChainsExample
import Testing

@Suite(.timeLimit(.minutes(10))) struct ExerciseOperationChainsTests {
    struct Corrupt: Error, Equatable {}

    static func queue() -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 3
        return queue
    }

    /// Waits until every operation added to `queue` so far has finished (or been cancelled).
    func drained(_ queue: OperationQueue) async {
        await withCheckedContinuation { continuation in queue.addBarrierBlock { continuation.resume() } }
    }

    // Exercise 1: whenThree(on:_:_:_:)

    @Test func valuesArriveInMemberOrderWhateverOrderTheyFinishIn() async throws {
        let (a, resolveA) = Promise<Int>.pending()
        let (b, resolveB) = Promise<Int>.pending()
        let (c, resolveC) = Promise<Int>.pending()
        let started = Counter()
        let all = answers.whenThree(
            on: Self.queue(),
            {
                started.increment(); return a
            },
            {
                started.increment(); return b
            },
            {
                started.increment(); return c
            })
        resolveC.fulfill(3)
        resolveB.fulfill(2)
        #expect(all.isPending, "the chain must wait for all three members")
        resolveA.fulfill(1)
        #expect(
            try await all.value == [1, 2, 3], "values must arrive in member order, whatever order the members finish in"
        )
        #expect(started.value == 3, "each member must be started exactly once")
    }

    @Test func aFailingMemberFailsTheStage() async throws {
        let (never, _) = Promise<Int>.pending()
        let all = answers.whenThree(on: Self.queue(), { Promise(value: 1) }, { Promise(error: Corrupt()) }, { never })
        await #expect(throws: Corrupt.self, "a failing member must fail the chain with its error") {
            try await all.value
        }
    }

    @Test func runsOnTheGivenQueue() async throws {
        let queue = Self.queue()
        let onQueue = Counter()
        let member: @Sendable () -> Promise<Int> = {
            if OperationQueue.current === queue { onQueue.increment() }
            return Promise(value: 0)
        }
        #expect(
            try await answers.whenThree(on: queue, member, member, member).value == [0, 0, 0],
            "the chain must fulfil with the members' values")
        #expect(onQueue.value == 3, "every member must run on the given queue")
    }

    // Exercise 2: chainFailingInTheMiddle(on:log:error:)

    @Test func rejectsWithTheMiddleStepsError() async throws {
        let queue = Self.queue()
        let log = StepLog()
        await #expect(throws: Corrupt.self, "the chain must reject with the error step 2 threw") {
            try await answers.chainFailingInTheMiddle(on: queue, log: log, error: Corrupt()).value
        }
        await drained(queue)
        #expect(log.order == [1, 2], "steps 1 and 2 ran; step 3 must never run after step 2 threw")
    }

    @Test func laterStepsNeverRunEvenAfterTheQueueDrains() async throws {
        for _ in 0..<20 {
            let queue = Self.queue()
            let log = StepLog()
            _ = await answers.chainFailingInTheMiddle(on: queue, log: log, error: Corrupt()).settled
            await drained(queue)
            #expect(log.order == [1, 2], "step 3 must not run even after the queue has drained")
        }
    }
}
