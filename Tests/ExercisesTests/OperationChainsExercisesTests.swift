import Exercises
import FlowKit
import Foundation
import OperationChainsExample
import Testing

@Suite struct ExerciseOperationChainsTests {
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
        let all = whenThree(
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
        #expect(all.isPending)
        resolveA.fulfill(1)
        #expect(try await all.value == [1, 2, 3])
        #expect(started.value == 3)
    }

    @Test func aFailingMemberFailsTheStage() async throws {
        let (never, _) = Promise<Int>.pending()
        let all = whenThree(on: Self.queue(), { Promise(value: 1) }, { Promise(error: Corrupt()) }, { never })
        await #expect(throws: Corrupt.self) { try await all.value }
    }

    @Test func runsOnTheGivenQueue() async throws {
        let queue = Self.queue()
        let onQueue = Counter()
        let member: @Sendable () -> Promise<Int> = {
            if OperationQueue.current === queue { onQueue.increment() }
            return Promise(value: 0)
        }
        #expect(try await whenThree(on: queue, member, member, member).value == [0, 0, 0])
        #expect(onQueue.value == 3)
    }

    // Exercise 2: chainFailingInTheMiddle(on:log:error:)

    @Test func rejectsWithTheMiddleStepsError() async throws {
        let queue = Self.queue()
        let log = StepLog()
        await #expect(throws: Corrupt.self) {
            try await chainFailingInTheMiddle(on: queue, log: log, error: Corrupt()).value
        }
        await drained(queue)
        #expect(log.order == [1, 2])
    }

    @Test func laterStepsNeverRunEvenAfterTheQueueDrains() async throws {
        for _ in 0..<20 {
            let queue = Self.queue()
            let log = StepLog()
            _ = await chainFailingInTheMiddle(on: queue, log: log, error: Corrupt()).settled
            await drained(queue)
            #expect(log.order == [1, 2])
        }
    }
}
