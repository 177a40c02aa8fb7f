import ExampleSupport
import FlowKit
import Foundation
import OperationChainsExample

// Lesson: Examples/OperationChains/LESSON.md — `then` chains, `when` fan-out, and the error funnel on a queue.
// Each function below is yours to write: replace its body, then run
//     HEALTHFLOW_EXERCISES=mine swift test --filter ExerciseOperationChains
// A worked solution is in Examples/Solutions/OperationChainsSolutions.swift: try first, compare after.

/// Exercise 1 (★★☆): run three members as one `when` stage of an `OperationChain` on `queue` and fulfil with
/// their values **in member order** — whatever order they finish in. If a member fails, the chain fails with its
/// error.
///
/// Hints:
/// - A member that starts asynchronous work is `.promise("name") { input in … }` (a `.block` member is for
///   synchronous work).
/// - Nothing runs until the chain is started: `start()` returns the chain's promise.
public func whenThree(
    on queue: OperationQueue,
    _ first: @escaping @Sendable () -> Promise<Int>,
    _ second: @escaping @Sendable () -> Promise<Int>,
    _ third: @escaping @Sendable () -> Promise<Int>
) -> Promise<[Int]> {
    Promise(error: Unimplemented("OperationChains 1"))
}

/// Exercise 2 (★☆☆): a three-step `then` chain on `queue` whose steps record 1, 2 and 3 in `log` — but step 2
/// throws `error` right after recording. The chain must reject with that error, and step 3 must never run.
///
/// Hints:
/// - A step that throws rejects the chain; later steps are skipped by the chain itself.
/// - `log.record(n)` is all a step needs to do.
public func chainFailingInTheMiddle(on queue: OperationQueue, log: StepLog, error: any Error) -> Promise<Void> {
    Promise(error: Unimplemented("OperationChains 2"))
}
