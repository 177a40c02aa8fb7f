import ExampleSupport
import FlowKit
import Foundation

/// With FlowKit's `OperationChain`: the same dependencies, written as the order you mean —
/// `.then(1).then(2).then(3)` and `.then(1).when([2, 3]).then(4)` — each chain's `start()` a promise, and
/// `when` waiting for both.
///
/// - Returns: A promise of the two order lines.
public func operationChainsWithPromises() -> Promise<[String]> {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 2
    let chainLog = StepLog()
    let chain = OperationChain(on: queue, name: "then chain")
        .then("1") { chainLog.record(1) }
        .then("2") { chainLog.record(2) }
        .then("3") { chainLog.record(3) }
        .start()
    let fanOutLog = StepLog()
    let fanOut = OperationChain(on: queue, name: "fan-out")
        .then("1") { fanOutLog.record(1) }
        .when([.block("2") { fanOutLog.record(2) }, .block("3") { fanOutLog.record(3) }])
        .then("4") { _ in fanOutLog.record(4) }
        .start()
    return when(fulfilled: chain, fanOut).map { _ in describe(chain: chainLog.order, fanOut: fanOutLog.order) }
}
