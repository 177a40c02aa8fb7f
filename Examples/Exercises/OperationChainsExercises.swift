import ExampleSupport
import FlowKit
import Foundation
import OperationChainsExample

// Lesson: Examples/OperationChains/LESSON.md — `then` chains, `when` fan-out, and the error funnel on a queue.

// Exercise 1 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseOperationChains
/// Exercise 1: run three members as one `when` stage of an `OperationChain` on `queue` and fulfil with their
/// values **in member order** — whatever order they finish in. If a member fails, the chain fails with its
/// error.
///
/// - Parameters:
///   - queue: Where the members' operations run.
///   - first: Starts the first member.
///   - second: Starts the second member.
///   - third: Starts the third member.
/// - Returns: A promise of the three values, in member order.
public func whenThree(
    on queue: OperationQueue,
    _ first: @escaping @Sendable () -> Promise<Int>,
    _ second: @escaping @Sendable () -> Promise<Int>,
    _ third: @escaping @Sendable () -> Promise<Int>
) -> Promise<[Int]> {
    OperationChain(on: queue, name: "three members")
        .when([
            .promise("first") { _ in first() }, .promise("second") { _ in second() },
            .promise("third") { _ in third() },
        ])
        .start()
}

// Exercise 2 — worked solution; delete the body and write your own, then run: swift test --filter ExerciseOperationChains
/// Exercise 2: a three-step `then` chain on `queue` whose steps record 1, 2 and 3 in `log` — but step 2 throws
/// `error` right after recording. The chain must reject with that error, and step 3 must never run.
///
/// - Parameters:
///   - queue: Where the steps run.
///   - log: Records the steps that ran.
///   - error: What step 2 throws.
/// - Returns: The chain's promise.
public func chainFailingInTheMiddle(on queue: OperationQueue, log: StepLog, error: any Error) -> Promise<Void> {
    OperationChain(on: queue, name: "fails in the middle")
        .then("1") { log.record(1) }
        .then("2") { _ in
            log.record(2)
            throw error
        }
        .then("3") { log.record(3) }
        .start()
}
