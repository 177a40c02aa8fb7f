import ExampleSupport
import FlowKit
import Foundation
import OperationChainsExample

// Lesson: Examples/OperationChains/LESSON.md — `then` chains, `when` fan-out, and the error funnel on a queue.
// Worked solutions of Examples/Exercises/OperationChainsExercises.swift (the tasks, with hints, are there).

/// Exercise 1, solved.
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

/// Exercise 2, solved.
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
