import ExampleSupport
import Foundation

/// With async/await no queue is needed: sequential `await`s are the chain, `async let` is the fan-out.
///
/// - Returns: The two order lines.
public func operationChainsAsync() async throws -> [String] {
    let chainLog = StepLog()
    await step(1, chainLog)
    await step(2, chainLog)
    await step(3, chainLog)

    let fanOutLog = StepLog()
    await step(1, fanOutLog)
    async let two: Void = step(2, fanOutLog)
    async let three: Void = step(3, fanOutLog)
    _ = await (two, three)
    await step(4, fanOutLog)
    return describe(chain: chainLog.order, fanOut: fanOutLog.order)
}

/// One asynchronous step.
private func step(_ number: Int, _ log: StepLog) async {
    await Task.yield()
    log.record(number)
}
