import FlowKit
import Foundation
import Synchronization
import Testing

extension OperationGraphSuite {
    /// Dependencies made with Foundation's own `addDependency` before a graph starts count in its cycle check: a
    /// cycle through them is the typed error before anything runs, never a queue that waits forever.
    @Suite(.timeLimit(.minutes(1))) struct FoundationDependencyCycleTests {
        @Test func aChainCycleThroughAFoundationDependencyIsRejectedBeforeAnythingRuns() async {
            let ran = Counter()
            let a = BlockOperation { ran.increment() }
            let b = BlockOperation { ran.increment() }
            a.addDependency(b)
            let chain = OperationChain(on: OperationQueue()).then(a, name: "a").then(b, name: "b")
            #expect(await rejection(of: chain.start()) as? GraphError == .cycle(nodes: ["a", "b", "a"]))
            #expect(ran.current == 0)
        }

        @Test func aCycleThroughAnOperationOutsideTheGraphIsRejected() async {
            let ran = Counter()
            let a = BlockOperation { ran.increment() }
            let b = BlockOperation { ran.increment() }
            let outside = BlockOperation { ran.increment() }
            a.addDependency(outside)
            outside.addDependency(b)
            let graph = OperationGraph(name: "through")
            let first = graph.add(a, name: "a")
            graph.add(b, name: "b").depends(on: first)
            #expect(throws: GraphError.cycle(nodes: ["a", "b", "a"])) { try graph.validate() }
            #expect(await rejection(of: graph.start()) as? GraphError == .cycle(nodes: ["a", "b", "a"]))
            #expect(ran.current == 0)
        }

        @Test func foundationDependenciesWithoutACycleAreHonoured() async throws {
            let order = Mutex<[String]>([])
            let a = BlockOperation { order.withLock { $0.append("a") } }
            let b = BlockOperation { order.withLock { $0.append("b") } }
            b.addDependency(a)
            let graph = OperationGraph(name: "fine")
            graph.add(b, name: "b")
            graph.add(a, name: "a")
            try await graph.run()
            #expect(order.withLock { $0 } == ["a", "b"])
        }
    }
}
