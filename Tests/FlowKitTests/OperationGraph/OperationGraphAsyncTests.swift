import FlowKit
import Foundation
import Testing

private func square(_ value: Int) async throws -> Int { value * value }

extension OperationGraphSuite {
    @Suite struct OperationGraphAsyncTests {
        @Test func aChainCanBeBuiltFromAsyncFunctionsAlone() async throws {
            let total = try await OperationChain(name: "async only")
                .then("seed") { () async throws -> Int in 3 }
                .when([.async("square") { try await square($0) }, .async("double") { $0 * 2 }])
                .then("sum") { (values: [Int]) async throws -> Int in values.reduce(0, +) }
                .run()
            #expect(total == 15)
        }

        @Test func aGraphCanBeBuiltFromAsyncFunctionsAlone() async throws {
            let graph = OperationGraph(name: "async dag")
            let three = graph.add("three") { () async throws -> Int in 3 }
            let four = graph.add("four") { () async throws -> Int in 4 }
            let nine = graph.add("nine", after: three) { try await square($0) }
            let sum = graph.add("sum") { () async throws -> Int in try nine.value() + four.value() }
            sum.depends(on: nine, four)
            try await graph.run()
            #expect(try sum.value() == 13)
        }

        @Test func promiseAndAsyncStylesGiveTheSameResultsAndTraces() async throws {
            func chain(async: Bool) -> OperationChain<Int> {
                let start = OperationChain(on: OperationQueue(), name: async ? "async" : "promise")
                let first: OperationChain<Int> =
                    async
                    ? start.then("one") { () async throws -> Int in 1 }
                    : start.then("one", promise: { Promise(value: 1) })
                return
                    first
                    .then("fail") { _ throws -> Int in throw TestError.boom }
                    .then("skipped") { $0 }
                    .recover("fallback") { _ in 41 }
                    .then("answer") { $0 + 1 }
            }
            let promiseChain = chain(async: false)
            let asyncChain = chain(async: true)
            let viaPromise = try await promiseChain.start().value
            let viaAsync = try await asyncChain.run()
            #expect(viaPromise == 42 && viaAsync == 42)
            #expect(promiseChain.graph.trace.entries.map(\.outcome) == asyncChain.graph.trace.entries.map(\.outcome))
        }

        @Test func runThrowsTheFirstErrorAndGraphErrors() async {
            await #expect(throws: TestError.boom) {
                try await OperationChain().then { () async throws -> Int in throw TestError.boom }.run()
            }
            await #expect(throws: GraphError.emptyGraph(graph: "empty")) {
                try await OperationGraph(name: "empty").run()
            }
        }
    }
}
