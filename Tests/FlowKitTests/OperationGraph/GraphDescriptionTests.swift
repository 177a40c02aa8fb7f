import FlowKit
import Foundation
import Testing

extension OperationGraphSuite {
    @Suite struct GraphDescriptionTests {
        private func seedChain() -> OperationChain<Void> {
            OperationChain(name: "seed")
                .then(BlockOperation {}, name: "one")
                .when([
                    .operation(BlockOperation {}, name: "two"), .operation(BlockOperation {}, name: "say \"three\""),
                ])
                .then(BlockOperation {}, name: "four")
                .catch { _ in }
        }

        @Test func rendersMermaidWithStagesEdgesAndRecoveryNodes() {
            let expected = """
                flowchart LR
                    n0["one"]
                    subgraph s2["stage 2: when"]
                        n1["two"]
                        n2["say #quot;three#quot;"]
                    end
                    n3["four"]
                    n4{{"catch"}}
                    n0 --> n1
                    n0 --> n2
                    n1 --> n3
                    n2 --> n3
                    n3 --> n4
                """
            #expect(seedChain().graph.mermaid == expected)
        }

        @Test func rendersDOTWithStagesEdgesAndRecoveryNodes() {
            let expected = """
                digraph "seed" {
                    rankdir=LR;
                    node [shape=box];
                    n0 [label="one"];
                    subgraph cluster_s2 {
                        label="stage 2: when";
                        n1 [label="two"];
                        n2 [label="say \\"three\\""];
                    }
                    n3 [label="four"];
                    n4 [label="catch", shape=hexagon];
                    n0 -> n1;
                    n0 -> n2;
                    n1 -> n3;
                    n2 -> n3;
                    n3 -> n4;
                }
                """
            #expect(seedChain().graph.dot == expected)
        }

        @Test func drawsTheJoinBetweenTwoMultiMemberStages() {
            let chain = OperationChain(name: "join")
                .when([.block("a") { 1 }, .block("b") { 2 }])
                .when([.block("c") { $0[0] }, .block("d") { $0[1] }])
            let expected = """
                flowchart LR
                    subgraph s1["stage 1: when"]
                        n0["a"]
                        n1["b"]
                    end
                    n2(("end of stage 1"))
                    subgraph s2["stage 2: when"]
                        n3["c"]
                        n4["d"]
                    end
                    n0 --> n2
                    n1 --> n2
                    n2 --> n3
                    n2 --> n4
                """
            #expect(chain.graph.mermaid == expected)
        }

        @Test func describesAGraphWithACycleWithoutRunningIt() {
            let graph = OperationGraph(name: "loop")
            let a = graph.add("a") { 1 }
            let b = graph.add("b") { 2 }.depends(on: a)
            a.depends(on: b)
            #expect(graph.mermaid.hasSuffix("n1 --> n0\n    n0 --> n1"))
        }
    }
}
