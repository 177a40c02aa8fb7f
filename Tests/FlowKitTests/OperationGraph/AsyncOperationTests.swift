import FlowKit
import Foundation
import Testing

/// An operation that reports when it executes and finishes only when the test says so.
private final class HeldOperation: AsyncOperation, @unchecked Sendable {
    let executed: Resolver<Void>
    let executions = Counter()

    init(executed: Resolver<Void>) {
        self.executed = executed
    }

    override func execute() {
        executions.increment()
        executed.fulfill()
    }
}

/// Waits for `operation` to finish without blocking the test's task.
private func finished(_ operation: Operation) async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            operation.waitUntilFinished()
            continuation.resume()
        }
    }
}

/// `addOperations(_:waitUntilFinished:)` is unavailable from async code (it could block); this never waits.
private func enqueue(_ operations: [Operation], on queue: OperationQueue) {
    queue.addOperations(operations, waitUntilFinished: false)
}

extension OperationGraphSuite {
    @Suite struct AsyncOperationTests {
        @Test func staysExecutingUntilFinishAndOnlyThenLetsDependentsStart() async {
            let (executed, executedResolver) = Promise<Void>.pending()
            let (dependentRan, dependentResolver) = Promise<Void>.pending()
            let held = HeldOperation(executed: executedResolver)
            let dependent = BlockOperation { dependentResolver.fulfill() }
            dependent.addDependency(held)
            enqueue([held, dependent], on: OperationQueue())

            _ = await executed.settled
            #expect(held.isAsynchronous)
            #expect(held.isExecuting && !held.isFinished)
            #expect(dependentRan.isPending && !dependent.isExecuting && !dependent.isFinished)

            held.finish()
            _ = await dependentRan.settled
            #expect(held.isFinished && !held.isExecuting)
        }

        @Test func anOperationCancelledBeforeItStartsFinishesWithoutExecuting() async {
            let held = HeldOperation(executed: Promise<Void>.pending().resolver)
            held.cancel()
            OperationQueue().addOperation(held)
            await finished(held)
            #expect(held.executions.current == 0)
            #expect(held.isFinished && held.isCancelled && !held.isExecuting)
        }

        @Test func finishingTwiceOrFromManyThreadsIsHarmless() async {
            let (executed, executedResolver) = Promise<Void>.pending()
            let held = HeldOperation(executed: executedResolver)
            let queue = OperationQueue()
            queue.addOperation(held)
            _ = await executed.settled
            DispatchQueue.concurrentPerform(iterations: 8) { _ in held.finish() }
            await finished(held)
            #expect(held.isFinished)
            #expect(held.executions.current == 1)
        }

        @Test func theDefaultExecuteFinishesAtOnce() async {
            let operation = AsyncOperation()
            OperationQueue().addOperation(operation)
            await finished(operation)
            #expect(operation.isFinished)
        }

        @Test func graphNodesStayExecutingWhileTheirPromiseIsPending() async throws {
            let (gate, open) = Promise<Int>.pending()
            let (started, startedResolver) = Promise<Void>.pending()
            let graph = OperationGraph()
            let node = graph.add(
                "pending",
                promise: {
                    startedResolver.fulfill()
                    return gate
                })
            let result = graph.start()
            _ = await started.settled
            #expect(node.operation.isExecuting && !node.operation.isFinished)
            open.fulfill(7)
            try await result.value
            #expect(node.operation.isFinished && !node.operation.isExecuting)
            #expect(try node.value() == 7)
        }
    }
}
