import Foundation

/// One node of an ``OperationGraph``, whatever the type of its value: its name, the `Operation` that runs it,
/// and the nodes it depends on.
///
/// You get nodes from the graph's `add` methods (as ``GraphNode``) and connect them with
/// ``depends(on:)-(AnyGraphNode...)``.
///
/// - Note: Nodes are `Sendable`; dependencies may be added from any thread until the graph starts.
public class AnyGraphNode: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property is an immutable `let` of a Sendable type, and the one mutable
    // part (the dependency list) lives in a `LockedState`. The class is not final only so that `GraphNode<Output>` can
    // add its typed result; it cannot be subclassed outside FlowKit.

    /// The node's name, used in errors, traces and diagrams.
    public var name: String {
        nodeName(explicitName, index)
    }

    /// The name given when the node was added, if any (unnamed nodes are named after their index on demand).
    let explicitName: String?

    /// The node's position in its graph, in the order nodes were added (from 0).
    public let index: Int

    /// The `Operation` that runs the node: yours for nodes made from an operation, otherwise the asynchronous
    /// operation FlowKit made for the closure. When the graph starts, its dependencies mirror the graph's edges.
    public let operation: Operation

    /// The operation FlowKit enqueues for the node; for a node made from your operation, it runs after yours
    /// and reports its outcome.
    let runner: NodeOperation

    /// The caller's operation, for nodes made from one.
    let userOperation: Operation?

    /// What the node is for: work, recovery (runs when an input failed), or a builder's join between stages.
    let role: NodeRole

    /// Whether the node runs when an input failed (a `catch` or `recover` node).
    var isRecovery: Bool { role == .recovery }

    /// The builder stage the node belongs to, if a builder made it.
    let stage: GraphStage?

    /// The identifier of the graph that made the node.
    let graphID: UInt64

    private let edges = LockedState(Edges())

    struct Edges: Sendable {
        var dependencies = DependencyList()
        var foreign: String?
    }

    init(
        name: String?,
        index: Int,
        runner: NodeOperation,
        userOperation: Operation?,
        role: NodeRole,
        stage: GraphStage?,
        graphID: UInt64
    ) {
        self.explicitName = name
        self.index = index
        self.runner = runner
        self.userOperation = userOperation
        self.operation = userOperation ?? runner
        self.role = role
        self.stage = stage
        self.graphID = graphID
    }

    /// Makes this node run only after each of `nodes` fulfilled.
    ///
    /// If one of them fails, this node never runs (it is *skipped*) unless it is a recovery node. Nodes from
    /// another graph are rejected with ``GraphError/foreignNode(node:dependent:)`` when the graph starts;
    /// cycles with ``GraphError/cycle(nodes:)``. Dependencies added after the graph started are ignored.
    ///
    /// - Parameter nodes: The nodes this one waits for.
    /// - Returns: This node, to chain calls.
    /// - Complexity: O(*k*) for *k* nodes.
    @discardableResult
    public func depends(on nodes: AnyGraphNode...) -> Self {
        depends(on: nodes)
    }

    /// Makes this node run only after each of `nodes` fulfilled (the array form).
    ///
    /// - Parameter nodes: The nodes this one waits for.
    /// - Returns: This node, to chain calls.
    /// - Complexity: O(*k*) for *k* nodes.
    @discardableResult
    public func depends(on nodes: [AnyGraphNode]) -> Self {
        edges.withLock { edges in
            for node in nodes {
                if node.graphID == graphID {
                    edges.dependencies.append(node.index)
                } else if edges.foreign == nil {
                    edges.foreign = node.name
                }
            }
        }
        return self
    }

    /// Adds one dependency (the builders' path: no array for the common case of a single predecessor).
    @usableFromInline
    func addDependency(on node: AnyGraphNode) {
        edges.withLock { edges in
            if node.graphID == graphID {
                edges.dependencies.append(node.index)
            } else if edges.foreign == nil {
                edges.foreign = node.name
            }
        }
    }

    /// A snapshot of the indices this node depends on, and the first foreign node it was given, if any.
    var dependencySnapshot: Edges {
        edges.withLock { $0 }
    }
}

/// A node of an ``OperationGraph`` whose work produces an `Output`.
///
/// Read the value from a node that depends on it (it is guaranteed to have fulfilled by then), or after the graph
/// finished.
public final class GraphNode<Output: Sendable>: AnyGraphNode, @unchecked Sendable {
    // `@unchecked Sendable`: adds one immutable `let` of a Sendable type to a Sendable base class.

    @usableFromInline
    let box: ResultBox<Output>

    @usableFromInline
    init(
        name: String?,
        index: Int,
        box: ResultBox<Output>,
        runner: NodeOperation,
        userOperation: Operation?,
        role: NodeRole,
        stage: GraphStage?,
        graphID: UInt64
    ) {
        self.box = box
        super.init(
            name: name, index: index, runner: runner, userOperation: userOperation, role: role, stage: stage,
            graphID: graphID)
    }

    /// The node's outcome once its work finished: its value or its error; `nil` while pending or if skipped.
    public var result: Result<Output, any Error>? {
        box.result
    }

    /// The node's value.
    ///
    /// - Returns: The value the node's work produced.
    /// - Throws: The node's own error if it failed, or ``GraphError/resultUnavailable(node:)`` if it has not
    ///   finished (or was skipped).
    public func value() throws -> Output {
        try box.value()
    }
}

/// Where a node's value is kept; closures of later nodes capture the box (never the node), so finished chains
/// hold no references between nodes.
@usableFromInline
final class ResultBox<Output: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable`: `stored`, the one mutable property, is only read and written under `lock`.
    // A value-less lock beside the field (as in `Promise`) rather than a `LockedState<Result<Output, any Error>?>`:
    // the box's deinit is never specialised, and a `LockedState<…>` field would cost it one more metadata lookup.
    @usableFromInline
    let explicitName: String?
    @usableFromInline
    let index: Int
    @usableFromInline
    let lock = StateLock()
    @usableFromInline
    @exclusivity(unchecked)
    nonisolated(unsafe) var stored: Result<Output, any Error>?

    @inlinable
    init(name: String?, index: Int) {
        self.explicitName = name
        self.index = index
    }

    @usableFromInline
    var name: String {
        nodeName(explicitName, index)
    }

    @inlinable
    var result: Result<Output, any Error>? {
        lock.withLock { stored }
    }

    // The hot path of a chain (a dependent reading its input, a node storing its value) is inlinable, so a
    // client module runs it specialised for its value type.
    @inlinable
    func value() throws -> Output {
        guard let result else { throw GraphError.resultUnavailable(node: name) }
        return try result.get()
    }

    /// Runs `work`, keeps its outcome, and reports success or the error to the engine.
    @inlinable
    func capture(_ work: () throws -> Output) -> Result<Void, any Error> {
        do {
            let value = try work()
            store(.success(value))
            return .success(())
        } catch {
            store(.failure(error))
            return .failure(error)
        }
    }

    @inlinable
    func store(_ result: Result<Output, any Error>) {
        lock.withLock { stored = result }
    }
}

/// What a node is for.
@usableFromInline
enum NodeRole: Sendable {
    /// Runs work when its inputs fulfilled.
    case work
    /// Runs when its inputs resolved, fulfilled or not (`catch`, `recover`).
    case recovery
    /// Joins two multi-member builder stages, so that *m* members followed by *k* members cost *m + k* edges
    /// instead of *m × k*.
    case join
}

/// A builder stage: its number (from 1) and whether it was a `when` (drawn as a group in diagrams).
@usableFromInline
struct GraphStage: Sendable, Hashable {
    @usableFromInline
    let number: Int
    @usableFromInline
    let isWhen: Bool

    @inlinable
    init(number: Int, isWhen: Bool) {
        self.number = number
        self.isWhen = isWhen
    }
}

/// A node's name: the one it was given, or `node <index>`.
@usableFromInline
func nodeName(_ explicit: String?, _ index: Int) -> String {
    explicit ?? "node \(index)"
}

/// A node's dependencies (indices in its graph), without an array for the common case of one.
struct DependencyList: Sendable, Sequence {
    private var first: Int?
    private var rest: [Int] = []

    init() {}

    var count: Int {
        first == nil ? 0 : 1 + rest.count
    }

    mutating func append(_ index: Int) {
        if first == nil { first = index } else { rest.append(index) }
    }

    func makeIterator() -> Iterator {
        Iterator(list: self)
    }

    struct Iterator: IteratorProtocol {
        let list: DependencyList
        var position = -1

        mutating func next() -> Int? {
            defer { position += 1 }
            if position < 0 { return list.first }
            return position < list.rest.count ? list.rest[position] : nil
        }
    }
}
