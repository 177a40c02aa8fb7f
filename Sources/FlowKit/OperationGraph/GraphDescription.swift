/// Diagrams of a graph's shape: nodes (by name), builder stages, and dependency edges, as Mermaid or Graphviz DOT
/// text — paste them into documentation, a pull request, or a teaching slide.
///
/// Members of a `when` stage are grouped (a Mermaid `subgraph`, a DOT `cluster`); recovery nodes are drawn as
/// hexagons and the chain's join nodes as small circles; dependencies the caller made with Foundation's own
/// `addDependency` between operations of the graph are drawn dashed, labelled "Foundation". Edges are listed node by node, in the order nodes and
/// dependencies were added, so the text is stable and can be compared in tests.
extension OperationGraph {
    /// The graph as a Mermaid flowchart (left to right).
    ///
    /// - Complexity: O(V + E).
    public var mermaid: String {
        let shape = GraphShape(nodes)
        var lines = ["flowchart LR"]
        func declare(_ node: AnyGraphNode, indent: String) {
            let label = mermaidLabel(node.name)
            switch node.role {
            case .work: lines.append("\(indent)n\(node.index)[\"\(label)\"]")
            case .recovery: lines.append("\(indent)n\(node.index){{\"\(label)\"}}")
            case .join: lines.append("\(indent)n\(node.index)((\"\(label)\"))")
            }
        }
        shape.forEachGroup { stage, members in
            guard let stage else {
                declare(members[0], indent: "    ")
                return
            }
            lines.append("    subgraph s\(stage.number)[\"stage \(stage.number): when\"]")
            for member in members { declare(member, indent: "        ") }
            lines.append("    end")
        }
        for (from, to) in shape.edges { lines.append("    n\(from) --> n\(to)") }
        for (from, to) in shape.foundationEdges { lines.append("    n\(from) -.->|Foundation| n\(to)") }
        return lines.joined(separator: "\n")
    }

    /// The graph as a Graphviz DOT digraph (left to right); render it with `dot -Tsvg`.
    ///
    /// - Complexity: O(V + E).
    public var dot: String {
        let shape = GraphShape(nodes)
        var lines = ["digraph \"\(dotEscaped(name))\" {", "    rankdir=LR;", "    node [shape=box];"]
        func declare(_ node: AnyGraphNode, indent: String) {
            let label = dotEscaped(node.name)
            switch node.role {
            case .work: lines.append("\(indent)n\(node.index) [label=\"\(label)\"];")
            case .recovery: lines.append("\(indent)n\(node.index) [label=\"\(label)\", shape=hexagon];")
            case .join: lines.append("\(indent)n\(node.index) [label=\"\(label)\", shape=circle];")
            }
        }
        shape.forEachGroup { stage, members in
            guard let stage else {
                declare(members[0], indent: "    ")
                return
            }
            lines.append("    subgraph cluster_s\(stage.number) {")
            lines.append("        label=\"stage \(stage.number): when\";")
            for member in members { declare(member, indent: "        ") }
            lines.append("    }")
        }
        for (from, to) in shape.edges { lines.append("    n\(from) -> n\(to);") }
        for (from, to) in shape.foundationEdges {
            lines.append("    n\(from) -> n\(to) [style=dashed, label=\"Foundation\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }
}

/// The nodes grouped for drawing, and the edges in a stable order.
private struct GraphShape {
    let nodes: [AnyGraphNode]
    let members: [GraphStage: [AnyGraphNode]]
    let edges: [(Int, Int)]
    /// Dependencies the caller made with Foundation's `addDependency` that are not also graph edges (drawn dashed).
    let foundationEdges: [(Int, Int)]

    init(_ nodes: [AnyGraphNode]) {
        self.nodes = nodes
        var members: [GraphStage: [AnyGraphNode]] = [:]
        var edges: [(Int, Int)] = []
        for node in nodes {
            if let stage = node.stage, stage.isWhen { members[stage, default: []].append(node) }
            for dependency in node.dependencySnapshot.dependencies where dependency < nodes.count {
                edges.append((dependency, node.index))
            }
        }
        self.members = members
        self.edges = edges
        let drawn = Set(edges.map { [$0.0, $0.1] })
        self.foundationEdges = GraphPlan.foundationEdges(nodes).map { ($0.dependency, $0.dependent) }
            .filter { !drawn.contains([$0.0, $0.1]) }
    }

    /// Calls `body` once per ungrouped node, and once per `when` stage (at its first member) with all members.
    func forEachGroup(_ body: (GraphStage?, [AnyGraphNode]) -> Void) {
        var drawn = Set<GraphStage>()
        for node in nodes {
            guard let stage = node.stage, stage.isWhen, let group = members[stage] else {
                body(nil, [node])
                continue
            }
            if drawn.insert(stage).inserted { body(stage, group) }
        }
    }
}

/// Mermaid labels are quoted; a quote inside is written as an entity, and line breaks become spaces.
private func mermaidLabel(_ text: String) -> String {
    text.replacing("\"", with: "#quot;").replacing("\r\n", with: " ").replacing("\n", with: " ")
        .replacing("\r", with: " ")
}

/// DOT strings escape backslashes and quotes; line breaks become `\n`.
private func dotEscaped(_ text: String) -> String {
    text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\r\n", with: "\\n")
        .replacing("\n", with: "\\n").replacing("\r", with: "\\n")
}
