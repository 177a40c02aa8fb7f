import FlowKit
import Foundation
import Testing

extension OperationGraphSuite {
    @Suite struct OperationGraphTests {
        @Test func runsEachNodeAfterItsDependencies() async throws {
            let recorder = Recorder<String>()
            let graph = OperationGraph(name: "diamond")
            let top = graph.add("top") { recorder.append("top") }
            let left = graph.add("left") { recorder.append("left") }.depends(on: top)
            let right = graph.add("right") { recorder.append("right") }.depends(on: top)
            graph.add("bottom") { recorder.append("bottom") }.depends(on: left, right)
            try await graph.run()
            let events = recorder.events
            #expect(events.first == "top")
            #expect(events.last == "bottom")
            #expect(Set(events) == ["top", "left", "right", "bottom"])
        }

        @Test func nodesReadTheValuesOfTheirDependencies() async throws {
            let graph = OperationGraph()
            let steps = graph.add("steps", promise: { Promise(value: [4_000, 6_000]) })
            let goal = graph.add("goal") { 8_000 }
            let met = graph.add("met") { try steps.value().reduce(0, +) >= goal.value() }.depends(on: steps, goal)
            let percent = graph.add("percent", after: steps) { $0.reduce(0, +) / 100 }
            try await graph.run()
            #expect(try met.value())
            #expect(try percent.value() == 100)
            #expect(try steps.result?.get() == [4_000, 6_000])
        }

        @Test func nodesMayDependOnNodesAddedAfterThem() async throws {
            let recorder = Recorder<String>()
            let graph = OperationGraph()
            let last = graph.add("last") { recorder.append("last") }
            let middle = graph.add("middle") { recorder.append("middle") }
            let first = graph.add("first") { recorder.append("first") }
            last.depends(on: middle)
            middle.depends(on: first)
            try await graph.run()
            #expect(recorder.events == ["first", "middle", "last"])
        }

        @Test func aPlainOperationNodeHandsOnTheValueItProduced() async throws {
            final class Parse: Operation, @unchecked Sendable {
                nonisolated(unsafe) var records: [Int] = []
                override func main() { records = [1, 2, 3] }
            }
            let graph = OperationGraph()
            let parse = graph.add(Parse(), name: "parse") { $0.records }
            let count = graph.add("count", after: parse) { $0.count }
            try await graph.run()
            #expect(try count.value() == 3)
            #expect(parse.operation.isFinished)
        }

        @Test func readingAValueBeforeTheNodeFulfilledThrows() {
            let graph = OperationGraph()
            let node = graph.add("later") { 1 }
            #expect(throws: GraphError.resultUnavailable(node: "later")) { try node.value() }
        }

        @Test func rejectsADependencyCycleNamingItsNodes() async {
            let ran = Counter()
            let graph = OperationGraph(name: "loop")
            let a = graph.add("a") { ran.increment() }
            let b = graph.add("b") { ran.increment() }.depends(on: a)
            let c = graph.add("c") { ran.increment() }.depends(on: b)
            a.depends(on: c)
            graph.add("d") { ran.increment() }.depends(on: c)
            let expected = GraphError.cycle(nodes: ["a", "b", "c", "a"])
            #expect(throws: expected) { try graph.validate() }
            #expect(await rejection(of: graph.start()) as? GraphError == expected)
            #expect(expected.description == "dependency cycle: a → b → c → a")
            #expect(ran.current == 0)
        }

        @Test func rejectsANodeThatDependsOnItself() {
            let graph = OperationGraph()
            let node = graph.add("self") { 1 }
            node.depends(on: node)
            #expect(throws: GraphError.cycle(nodes: ["self", "self"])) { try graph.validate() }
        }

        @Test func rejectsANodeFromAnotherGraph() async {
            let first = OperationGraph(name: "first")
            let second = OperationGraph(name: "second")
            let theirs = first.add("theirs") { 1 }
            second.add("mine") { 2 }.depends(on: theirs)
            #expect(
                await rejection(of: second.start()) as? GraphError == .foreignNode(node: "theirs", dependent: "mine"))
        }

        @Test func rejectsAnEmptyGraph() async {
            #expect(
                await rejection(of: OperationGraph(name: "void").start()) as? GraphError == .emptyGraph(graph: "void"))
        }

        @Test func rejectsAFinishedOrCancelledOperation() async {
            let finished = BlockOperation {}
            finished.start()
            let graph = OperationGraph()
            graph.add(finished, name: "done")
            #expect(await rejection(of: graph.start()) as? GraphError == .operationFinished(node: "done"))

            let cancelled = BlockOperation {}
            cancelled.cancel()
            let other = OperationGraph()
            other.add(cancelled, name: "cancelled")
            #expect(await rejection(of: other.start()) as? GraphError == .operationCancelled(node: "cancelled"))
        }

        @Test func rejectsTheSameOperationTwiceOrInTwoRunningGraphs() async throws {
            let operation = BlockOperation {}
            let twice = OperationGraph()
            twice.add(operation, name: "first")
            twice.add(operation, name: "second")
            #expect(await rejection(of: twice.start()) as? GraphError == .operationInUse(node: "second"))

            let (gate, open) = Promise<Void>.pending()
            let shared = BlockOperation {}
            let running = OperationGraph()
            running.add("wait", promise: { gate })
            running.add(shared, name: "shared").depends(on: running.nodes[0])
            let first = running.start()
            let other = OperationGraph()
            other.add(shared, name: "again")
            #expect(await rejection(of: other.start()) as? GraphError == .operationInUse(node: "again"))
            open.fulfill()
            try await first.value
        }

        @Test func aGraphRunsOnceAndASecondStartFailsInsteadOfHanging() async throws {
            let runs = Counter()
            let graph = OperationGraph(name: "once")
            graph.add("count") { runs.increment() }
            try await graph.run()
            #expect(await rejection(of: graph.start()) as? GraphError == .alreadyStarted(graph: "once"))
            await #expect(throws: GraphError.alreadyStarted(graph: "once")) { try await graph.run() }
            #expect(runs.current == 1)
        }

        @Test func aGraphThatFailedValidationCanBeCheckedAgain() async {
            let graph = OperationGraph(name: "limit", maxConcurrentNodes: 0)
            graph.add("work") { 1 }
            #expect(await rejection(of: graph.start()) as? GraphError == .invalidConcurrencyLimit(0))
            #expect(await rejection(of: graph.start()) as? GraphError == .invalidConcurrencyLimit(0))
        }

        @Test func ownsAQueueWhenGivenNoneAndUsesTheCallersOtherwise() async throws {
            let mine = OperationQueue()
            #expect(OperationGraph(queue: mine).queue === mine)
            let owned = OperationGraph(name: "owned")
            #expect(owned.queue.name == "FlowKit.OperationGraph(owned)")
            owned.add { 1 }
            try await owned.run()
        }

        @Test func nodesWithoutNamesAreNamedAfterTheirIndex() {
            let graph = OperationGraph()
            graph.add { 1 }
            let named = BlockOperation {}
            named.name = "legacy"
            graph.add(named)
            #expect(graph.nodes.map(\.name) == ["node 0", "legacy"])
        }
    }
}
