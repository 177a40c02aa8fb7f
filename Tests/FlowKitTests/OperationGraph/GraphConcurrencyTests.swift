import FlowKit
import Foundation
import Testing

extension OperationGraphSuite {
    @Suite struct GraphConcurrencyTests {
        @Test func thePerGraphLimitIsReachedAndNeverExceededWithoutChangingTheQueue() async throws {
            let queue = OperationQueue()
            let gate = ConcurrencyGate(limit: 2, total: 12)
            let graph = OperationGraph(name: "uploads", queue: queue, maxConcurrentNodes: 2)
            for index in 0..<12 { graph.add("upload \(index)", promise: { gate.enter() }) }
            try await graph.run()
            #expect(gate.maximum == 2)
            #expect(queue.maxConcurrentOperationCount == OperationQueue.defaultMaxConcurrentOperationCount)
        }

        @Test func theQueuesOwnLimitIsRespected() async throws {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 3
            let gate = ConcurrencyGate(limit: 3, total: 10)
            let graph = OperationGraph(name: "queue limited", queue: queue)
            for index in 0..<10 { graph.add("node \(index)", promise: { gate.enter() }) }
            try await graph.run()
            #expect(gate.maximum == 3)
        }

        @Test func aLimitedWhenStageStillHandsOnValuesInMemberOrder() async throws {
            let gate = ConcurrencyGate(limit: 2, total: 8)
            let values = try await OperationChain(on: OperationQueue(), maxConcurrentNodes: 2)
                .when((0..<8).map { index in .promise("member \(index)") { _ in gate.enter().map { index } } })
                .run()
            #expect(values == Array(0..<8))
            #expect(gate.maximum == 2)
        }

        @Test func graphsSharingAQueueEachKeepTheirOwnLimit() async throws {
            let queue = OperationQueue()
            let first = ConcurrencyGate(limit: 1, total: 5)
            let second = ConcurrencyGate(limit: 2, total: 6)
            let serial = OperationGraph(name: "one at a time", queue: queue, maxConcurrentNodes: 1)
            let pair = OperationGraph(name: "two at a time", queue: queue, maxConcurrentNodes: 2)
            for _ in 0..<5 { serial.add(promise: { first.enter() }) }
            for _ in 0..<6 { pair.add(promise: { second.enter() }) }
            async let a: Void = serial.run()
            async let b: Void = pair.run()
            _ = try await (a, b)
            #expect(first.maximum == 1)
            #expect(second.maximum == 2)
        }
    }
}
