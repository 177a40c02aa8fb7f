import FlowKit
import Foundation
import Testing

/// Graph stress sizes: 10,000 nodes, lowered with ``stressCount`` by CI's sanitizer runs.
private let graphStressCount = min(10_000, stressCount)

extension OperationGraphSuite {
    @Suite(.timeLimit(.minutes(10))) struct GraphStressTests {
        @Test func aChainOfTenThousandStagesFinishesWithoutDeepeningTheStack() async throws {
            var chain = OperationChain(on: OperationQueue(), name: "deep").then { 0 }
            for _ in 1..<graphStressCount { chain = chain.then { $0 + 1 } }
            #expect(try await chain.run() == graphStressCount - 1)
            #expect(chain.graph.nodes.map(\.operation.dependencies.count).reduce(0, +) == graphStressCount - 1)
        }

        @Test func aWhenOfTenThousandMembersFinishesWithLinearlyManyEdges() async throws {
            let chain = OperationChain(on: OperationQueue(), name: "wide")
                .then { 1 }
                .when((0..<graphStressCount).map { index in GraphStep<Int, Int>.block { $0 + index } })
                .then("sum") { $0.reduce(0, +) }
            let expected = graphStressCount + graphStressCount * (graphStressCount - 1) / 2
            #expect(try await chain.run() == expected)
            let edges = chain.graph.nodes.map(\.operation.dependencies.count).reduce(0, +)
            #expect(edges == 2 * graphStressCount)
        }

        @Test func aFailureAtTheStartOfADeepChainSkipsEverythingAfterIt() async {
            let ran = Counter()
            var chain = OperationChain(on: OperationQueue(), name: "deep failure").then { () throws -> Int in
                throw TestError.boom
            }
            for _ in 1..<graphStressCount {
                chain = chain.then { value in
                    ran.increment()
                    return value
                }
            }
            #expect(await rejection(of: chain.start()) as? TestError == .boom)
            #expect(ran.current == 0)
            #expect(chain.graph.trace.entries.filter { $0.outcome == .skipped }.count == graphStressCount - 1)
        }

        @Test func cancellingAWideLimitedStageStopsItPromptly() async {
            let started = Counter()
            let (first, firstStarted) = Promise<Void>.pending()
            let chain = OperationChain(on: OperationQueue(), name: "wide cancel", maxConcurrentNodes: 4)
                .when(
                    (0..<graphStressCount).map { _ in
                        GraphStep<Void, Void>.promise { _ in
                            started.increment()
                            firstStarted.fulfill()
                            return Promise<Void>.pending().promise
                        }
                    })
            let result = chain.start()
            _ = await first.settled
            chain.cancel()
            #expect(await rejection(of: result) is CancellationError)
            #expect(started.current <= 4)
        }
    }
}
