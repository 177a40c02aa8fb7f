import FlowKit
import Foundation
import Testing

extension OperationGraphSuite {
    /// Dependencies made with Foundation's own `addDependency` before a graph starts count in its cycle check: a
    /// cycle through them is the typed error before anything runs, never a queue that waits forever.
    @Suite struct FoundationDependencyCycleTests {
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

        @Test func foundationDependenciesAreDrawnDashed() {
            let a = BlockOperation {}
            let b = BlockOperation {}
            let c = BlockOperation {}
            b.addDependency(a)
            c.addDependency(b)
            let graph = OperationGraph(name: "drawn")
            let first = graph.add(a, name: "a")
            graph.add(b, name: "b")
            graph.add(c, name: "c").depends(on: first)
            #expect(graph.mermaid.hasSuffix("n0 --> n2\n    n0 -.->|Foundation| n1\n    n1 -.->|Foundation| n2"))
            #expect(graph.dot.contains("n1 -> n2 [style=dashed, label=\"Foundation\"];"))
            #expect(!graph.dot.contains("n0 -> n2 [style=dashed"))
        }

        @Test func foundationDependenciesWithoutACycleAreHonoured() async throws {
            let order = LockedState<[String]>([])
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
