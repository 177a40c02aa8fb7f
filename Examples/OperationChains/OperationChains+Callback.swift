import ExampleSupport
import Foundation

/// By hand: one `BlockOperation` per step, `addDependency` for every edge, and a final operation whose
/// completion reports — the bookkeeping `OperationPromise` wrapped.
///
/// - Parameter completion: Called once with the two order lines.
public func operationChainsWithCallbacks(completion: @escaping @Sendable (Result<[String], any Error>) -> Void) {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 2
    let chainLog = StepLog()
    let chain = (1...3).map { number in BlockOperation { chainLog.record(number) } }
    chain[1].addDependency(chain[0])
    chain[2].addDependency(chain[1])

    let fanOutLog = StepLog()
    let fanOut = (1...4).map { number in BlockOperation { fanOutLog.record(number) } }
    fanOut[1].addDependency(fanOut[0])
    fanOut[2].addDependency(fanOut[0])
    fanOut[3].addDependency(fanOut[1])
    fanOut[3].addDependency(fanOut[2])

    let report = BlockOperation {
        completion(.success(describe(chain: chainLog.order, fanOut: fanOutLog.order)))
    }
    report.addDependency(chain[2])
    report.addDependency(fanOut[3])
    queue.addOperations(chain + fanOut + [report], waitUntilFinished: false)
}
