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
        GraphShape(nodes).render(in: .mermaid, name: name)
    }

    /// The graph as a Graphviz DOT digraph (left to right); render it with `dot -Tsvg`.
    ///
    /// - Complexity: O(V + E).
    public var dot: String {
        GraphShape(nodes).render(in: .dot, name: name)
    }
}

/// How one diagram language writes the parts of a graph's shape.
private struct DiagramDialect: Sendable {
    let header: @Sendable (_ name: String) -> [String]
    /// Makes a node's label safe inside the double quotes it is written in.
    let escapeLabel: @Sendable (_ label: String) -> String
    let nodeShapes: NodeShapes
    let openStage: @Sendable (_ number: Int) -> [String]
    let closeStage: String
    let edge: @Sendable (_ from: Int, _ to: Int) -> String
    let foundationEdge: @Sendable (_ from: Int, _ to: Int) -> String
    let footer: [String]

    /// Node `id` drawn with its label, in the shape of its role.
    func node(_ id: Int, _ label: String, _ role: NodeRole) -> String {
        let (open, close) = nodeShapes[role]
        return "n\(id)\(open)\"\(escapeLabel(label))\"\(close)"
    }

    static let mermaid = DiagramDialect(
        header: { _ in ["flowchart LR"] },
        escapeLabel: mermaidLabel,
        nodeShapes: NodeShapes(work: ("[", "]"), recovery: ("{{", "}}"), join: ("((", "))")),
        openStage: { ["    subgraph s\($0)[\"stage \($0): when\"]"] },
        closeStage: "    end",
        edge: { "    n\($0) --> n\($1)" },
        foundationEdge: { "    n\($0) -.->|Foundation| n\($1)" },
        footer: [])

    static let dot = DiagramDialect(
        header: { ["digraph \"\(dotEscaped($0))\" {", "    rankdir=LR;", "    node [shape=box];"] },
        escapeLabel: dotEscaped,
        nodeShapes: NodeShapes(
            work: (" [label=", "];"), recovery: (" [label=", ", shape=hexagon];"),
            join: (" [label=", ", shape=circle];")),
        openStage: { ["    subgraph cluster_s\($0) {", "        label=\"stage \($0): when\";"] },
        closeStage: "    }",
        edge: { "    n\($0) -> n\($1);" },
        foundationEdge: { "    n\($0) -> n\($1) [style=dashed, label=\"Foundation\"];" },
        footer: ["}"])
}

/// The text a dialect writes before and after a node's quoted label, per role: what gives the node its drawn
/// shape.
private struct NodeShapes: Sendable {
    let work: (open: String, close: String)
    let recovery: (open: String, close: String)
    let join: (open: String, close: String)

    subscript(role: NodeRole) -> (open: String, close: String) {
        switch role {
        case .work: work
        case .recovery: recovery
        case .join: join
        }
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

    /// The shape written in `dialect`: nodes (stages grouped), then edges, then Foundation's edges.
    func render(in dialect: DiagramDialect, name: String) -> String {
        var lines = dialect.header(name)
        forEachGroup { stage, members in
            guard let stage else {
                lines.append("    " + dialect.node(members[0].index, members[0].name, members[0].role))
                return
            }
            lines += dialect.openStage(stage.number)
            for member in members { lines.append("        " + dialect.node(member.index, member.name, member.role)) }
            lines.append(dialect.closeStage)
        }
        for (from, to) in edges { lines.append(dialect.edge(from, to)) }
        for (from, to) in foundationEdges { lines.append(dialect.foundationEdge(from, to)) }
        return (lines + dialect.footer).joined(separator: "\n")
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
