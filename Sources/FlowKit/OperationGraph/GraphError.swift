/// Why an ``OperationGraph`` (or the ``OperationChain`` built on it) refused to start, or why a node's result
/// cannot be read.
///
/// Graphs are checked when they start, before any node runs: a graph that would hang or misbehave on an
/// `OperationQueue` — a dependency cycle, an operation that already ran — is rejected with one of these errors,
/// and every message names the nodes involved.
public enum GraphError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The graph has no node to run.
    case emptyGraph(graph: String)
    /// The dependencies form a cycle (`Operation`s in a cycle would wait for each other forever). The names
    /// follow the cycle in execution order and repeat the first node at the end.
    case cycle(nodes: [String])
    /// An `Operation` given as a node is already executing (it was started or added to a queue elsewhere).
    case operationExecuting(node: String)
    /// An `Operation` given as a node has already finished; operations run once.
    case operationFinished(node: String)
    /// An `Operation` given as a node was cancelled before the graph started, so it would never run.
    case operationCancelled(node: String)
    /// The same `Operation` was given for two nodes, or belongs to another graph that has not finished.
    case operationInUse(node: String)
    /// A node depends on a node that belongs to another graph.
    case foreignNode(node: String, dependent: String)
    /// ``OperationGraph/start()`` was called on a graph that has already started: a graph runs once.
    case alreadyStarted(graph: String)
    /// The per-graph concurrency limit is below one.
    case invalidConcurrencyLimit(Int)
    /// A node's value was read before the node fulfilled (it is pending, failed, cancelled or skipped).
    case resultUnavailable(node: String)

    /// A readable explanation naming the graph or nodes involved.
    public var description: String {
        switch self {
        case .emptyGraph(let graph):
            "graph \(quoted(graph)) has no nodes to run"
        case .cycle(let nodes):
            "dependency cycle: \(nodes.joined(separator: " → "))"
        case .operationExecuting(let node):
            "the operation of node \(quoted(node)) is already executing; an operation can join a graph only before it starts"
        case .operationFinished(let node):
            "the operation of node \(quoted(node)) has already finished; an operation runs only once"
        case .operationCancelled(let node):
            "the operation of node \(quoted(node)) was cancelled before the graph started"
        case .operationInUse(let node):
            "the operation of node \(quoted(node)) is already used by another node or graph"
        case .foreignNode(let node, let dependent):
            "node \(quoted(dependent)) depends on node \(quoted(node)), which belongs to another graph"
        case .alreadyStarted(let graph):
            "graph \(quoted(graph)) has already started; build a new graph to run the work again"
        case .invalidConcurrencyLimit(let limit):
            "the per-graph concurrency limit must be at least 1, got \(limit)"
        case .resultUnavailable(let node):
            "node \(quoted(node)) has no value: it has not fulfilled (pending, failed, cancelled or skipped)"
        }
    }
}

private func quoted(_ name: String) -> String {
    "\"\(name)\""
}
