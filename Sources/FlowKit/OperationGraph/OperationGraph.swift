import Foundation
import Synchronization

/// A set of units of work with explicit dependencies, run as `Operation`s on an `OperationQueue`.
///
/// Add nodes — closures, promise-returning closures, `async` functions, or your own `Operation`s — connect them
/// with ``AnyGraphNode/depends(on:)-(AnyGraphNode...)``, then ``start()`` the graph (or `try await` ``run()``).
/// A node runs once everything it depends on has fulfilled; independent nodes run concurrently, as far as the
/// queue and the graph's own limit allow.
///
/// For the common shape — stage after stage, some stages running several steps at once — ``OperationChain``
/// builds the same graph from a readable chain: `.then(…)`, `.when([…])`, `.catch { … }`.
///
/// ## Failure
/// When a node fails, the nodes that depend on it are *skipped*: their operations are cancelled and never run
/// (FlowKit checks before calling your code; Foundation on Linux would otherwise run the dependents of a
/// cancelled operation). Running nodes whose results nobody needs any more are cancelled. If the error reaches a
/// node nothing depends on, the graph fails with it — once, with the first such error — and every other pending
/// node is skipped and every running node cancelled. A recovery node (``recover(_:from:policy:_:)``) turns a
/// failure into a value instead, and the nodes after it run.
///
/// ## Cancellation
/// ``cancel()``, cancelling the promise ``start()`` returned, or cancelling the task awaiting ``run()`` skips
/// pending nodes and cancels running ones: `Operation.cancel()` for every node, `Promise.cancel()` for
/// promise nodes (running their `onCancel` handlers), `Task.cancel()` for `async` nodes. The graph settles with
/// `CancellationError`.
///
/// ## When the graph settles
/// The promise from ``start()`` settles (and ``run()`` returns or throws) once every node has finished or been
/// skipped and every operation the graph enqueued has finished, so the trace is complete by then. The one
/// exception is cancelling that promise itself, which rejects it at once, as for any promise, while running
/// nodes wind down in the background.
///
/// ## Concurrency
/// Nodes run on ``queue``: yours, or one the graph creates. The queue's `maxConcurrentOperationCount` applies;
/// `maxConcurrentNodes` limits this graph alone without changing a shared queue. The graph enqueues a node only
/// when it is ready, so the queue holds the graph's frontier rather than all of it. No lock is held while your
/// code runs.
///
/// - Note: A graph runs once: a second ``start()`` fails with ``GraphError/alreadyStarted(graph:)``.
/// - Complexity: Starting is O(V + E): one pass to check for cycles (Kahn's algorithm, no recursion), one
///   `addDependency` per edge. Running does O(1) work per edge.
public final class OperationGraph: Sendable {
    /// The graph's name, used in errors, traces and diagrams.
    public let name: String

    /// The queue the graph's operations run on.
    public let queue: OperationQueue

    /// The most nodes of this graph that may run at once, or `nil` for no limit beyond the queue's.
    public let maxConcurrentNodes: Int?

    /// Whether the graph records when each node starts and ends (see ``trace``).
    public let recordsTrace: Bool

    let clock: GraphClock
    @usableFromInline
    let id: UInt64
    let build = LockedState(BuildState())

    struct BuildState: Sendable {
        enum Phase: Sendable { case building, starting, started }
        var phase = Phase.building
        var nodes: [AnyGraphNode] = []
        var engine: GraphEngine?
    }

    private static let identifiers = Atomic<UInt64>(0)

    /// Creates an empty graph.
    ///
    /// - Parameters:
    ///   - name: A name for errors, traces and diagrams.
    ///   - queue: Where the operations run; `nil` creates a queue for this graph (no concurrency limit).
    ///   - maxConcurrentNodes: At most this many of the graph's nodes run at once (`nil`: only the queue's
    ///     limit applies). It does not change the queue, which other work may share.
    ///   - recordsTrace: Whether to record start and end times for ``trace``.
    ///   - clock: The clock for those times.
    public init(
        name: String = "graph",
        queue: OperationQueue? = nil,
        maxConcurrentNodes: Int? = nil,
        recordsTrace: Bool = false,
        clock: GraphClock = .continuous
    ) {
        self.name = name
        self.queue = queue ?? OperationGraph.makeQueue(named: name)
        self.maxConcurrentNodes = maxConcurrentNodes
        self.recordsTrace = recordsTrace
        self.clock = clock
        self.id = OperationGraph.identifiers.wrappingAdd(1, ordering: .relaxed).newValue
    }

    deinit {
        // Release nodes last-added first, so a long chain is not freed recursively through the dependencies
        // its operations hold.
        var nodes = build.withLock { state in
            let nodes = state.nodes
            state.nodes = []
            return nodes
        }
        while !nodes.isEmpty { nodes.removeLast() }
    }

    private static func makeQueue(named name: String) -> OperationQueue {
        let queue = OperationQueue()
        queue.name = "FlowKit.OperationGraph(\(name))"
        return queue
    }

    // MARK: - Adding nodes

    /// Adds a node that runs `body` on the queue and keeps its value.
    ///
    /// - Parameters:
    ///   - name: The node's name; `nil` names it after its index (`node 3`).
    ///   - body: The work; a thrown error fails the node.
    /// - Returns: The node, to add dependencies and read its value.
    @discardableResult
    public func add<Output: Sendable>(
        _ name: String? = nil,
        _ body: @escaping @Sendable () throws -> Output
    ) -> GraphNode<Output> {
        makeNode(name: name, stage: nil, role: .work) { box in (.value(into: box, body), nil) }
    }

    /// Adds a node that follows the promise `body` returns: it stays executing until the promise settles.
    ///
    /// Cancelling the graph while the node runs cancels the promise (its `onCancel` handlers run).
    ///
    /// - Parameters:
    ///   - name: The node's name; `nil` names it after its index.
    ///   - body: Starts the work and returns its promise; a thrown error fails the node.
    /// - Returns: The node.
    @discardableResult
    public func add<Output: Sendable>(
        _ name: String? = nil,
        promise body: @escaping @Sendable () throws -> Promise<Output>
    ) -> GraphNode<Output> {
        makeNode(name: name, stage: nil, role: .work) { box in (.promise(into: box, body), nil) }
    }

    /// Adds your own `Operation` as a node; the graph enqueues it when its dependencies have fulfilled.
    ///
    /// The node fulfills when the operation finishes, and fails with `CancellationError` if it was cancelled.
    /// Express its dependencies with ``AnyGraphNode/depends(on:)-(AnyGraphNode...)``, not `addDependency`.
    ///
    /// - Parameters:
    ///   - operation: A fresh operation: not started, finished, cancelled, or in a queue or another graph
    ///     (checked when the graph starts).
    ///   - name: The node's name; `nil` uses the operation's `name`, or the index.
    /// - Returns: The node.
    @discardableResult
    public func add(_ operation: Operation, name: String? = nil) -> GraphNode<Void> {
        add(operation, name: name) { _ in () }
    }

    /// Adds your own `Operation` as a node whose value is read from the operation once it finished.
    ///
    /// - Parameters:
    ///   - operation: A fresh operation.
    ///   - name: The node's name; `nil` uses the operation's `name`, or the index.
    ///   - result: Reads the value from the finished operation; a thrown error fails the node.
    /// - Returns: The node.
    @discardableResult
    public func add<Op: Operation, Output: Sendable>(
        _ operation: Op,
        name: String? = nil,
        result: @escaping @Sendable (Op) throws -> Output
    ) -> GraphNode<Output> {
        makeNode(name: name ?? operation.name, stage: nil, role: .work) { box in
            (.observing(operation, into: box, result), operation)
        }
    }

    /// Adds a node that runs after `node` fulfilled and receives its value.
    ///
    /// - Parameters:
    ///   - name: The node's name; `nil` names it after its index.
    ///   - node: The node whose value `body` receives; the new node depends on it.
    ///   - body: The work; a thrown error fails the node.
    /// - Returns: The node.
    @discardableResult
    public func add<Input: Sendable, Output: Sendable>(
        _ name: String? = nil,
        after node: GraphNode<Input>,
        _ body: @escaping @Sendable (Input) throws -> Output
    ) -> GraphNode<Output> {
        let input = node.box
        return add(name) { try body(input.value()) }.depends(on: node)
    }

    /// Adds a recovery node after `node`: it passes `node`'s value on, or turns its failure into a value with
    /// `body`, so the nodes after it run either way.
    ///
    /// - Parameters:
    ///   - name: The node's name; `nil` names it after its index.
    ///   - node: The node whose failure is handled.
    ///   - policy: Which errors `body` handles; by default all but `CancellationError`.
    ///   - body: Receives the first error among the node's inputs; returns a replacement or throws.
    /// - Returns: The recovery node.
    @discardableResult
    public func recover<Output: Sendable>(
        _ name: String? = nil,
        from node: GraphNode<Output>,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) throws -> Output
    ) -> GraphNode<Output> {
        let input = node.box
        return makeNode(name: name, stage: nil, role: .recovery) { box in
            (.recovery(into: box, policy: policy, input: { try input.value() }, handler: body), nil)
        }.depends(on: node)
    }

    /// The nodes, in the order they were added.
    public var nodes: [AnyGraphNode] {
        build.withLock { $0.nodes }
    }

    /// Creates and registers a node; `make` receives its result box and returns its body and caller operation.
    ///
    /// Inlinable, like the chain builder that calls it, so that a client module specialises the node's body
    /// and result box for its value type (unspecialised generic code costs a metadata lookup per operation).
    @inlinable
    func makeNode<Output: Sendable>(
        name: String?,
        stage: GraphStage?,
        role: NodeRole,
        _ make: (ResultBox<Output>) -> (NodeBody, Operation?)
    ) -> GraphNode<Output> {
        let graphID = id
        let node = register { index in
            let box = ResultBox<Output>(name: name, index: index)
            let (body, operation) = make(box)
            return GraphNode(
                name: name,
                index: index,
                box: box,
                runner: NodeOperation(index: index, body: body, isObserver: operation != nil),
                userOperation: operation,
                role: role,
                stage: stage,
                graphID: graphID
            )
        }
        // `register` returns the node `make` built, which is a `GraphNode<Output>`.
        return unsafeDowncast(node, to: GraphNode<Output>.self)
    }

    /// Appends the node `make` builds for the next index, under the build lock.
    @usableFromInline
    func register(_ make: (_ index: Int) -> AnyGraphNode) -> AnyGraphNode {
        build.withLock { state in
            let node = make(state.nodes.count)
            state.nodes.append(node)
            return node
        }
    }

    // MARK: - Running

    /// Checks that the graph can start, without starting it.
    ///
    /// - Throws: The ``GraphError`` that ``start()`` would reject with.
    /// - Complexity: O(V + E).
    public func validate() throws(GraphError) {
        let (phase, nodes) = build.withLock { ($0.phase, $0.nodes) }
        guard phase == .building else { throw .alreadyStarted(graph: name) }
        if let limit = maxConcurrentNodes, limit < 1 { throw .invalidConcurrencyLimit(limit) }
        _ = try GraphPlan(graphName: name, nodes: nodes, dryRun: true)
    }

    /// Starts the graph: checks it, then enqueues the nodes that depend on nothing.
    ///
    /// - Returns: A promise fulfilled when every node has fulfilled (or a recovery node handled the failures),
    ///   rejected with the first unhandled error or `CancellationError`, or with a ``GraphError`` — at once, before
    ///   anything runs — if the graph cannot start. Cancelling it cancels the graph.
    /// - Complexity: O(V + E).
    ///
    /// The result is not discardable: a graph that can fail is awaited, returned, or ended with a `catch`, or its
    /// error is lost.
    public func start() -> Promise<Void> {
        let claimed: [AnyGraphNode]? = build.withLock { state in
            guard state.phase == .building else { return nil }
            state.phase = .starting
            return state.nodes
        }
        guard let nodes = claimed else { return Promise(error: GraphError.alreadyStarted(graph: name)) }
        let plan: GraphPlan
        do throws(GraphError) {
            if let limit = maxConcurrentNodes, limit < 1 { throw .invalidConcurrencyLimit(limit) }
            plan = try GraphPlan(graphName: name, nodes: nodes)
        } catch {
            build.withLock { $0.phase = .building }
            return Promise(error: error)
        }
        let engine = GraphEngine(
            plan: plan, name: name, queue: queue, limit: maxConcurrentNodes, clock: recordsTrace ? clock : nil)
        build.withLock { state in
            state.phase = .started
            state.engine = engine
        }
        engine.launch()
        return engine.promise
    }

    /// Cancels the graph: pending nodes are skipped, running nodes cancelled; the graph settles with
    /// `CancellationError` once they stopped. Does nothing before ``start()`` or after the graph settled.
    public func cancel() {
        build.withLock { $0.engine }?.cancel()
    }

    /// What happened to each node so far: outcomes, and start and end times if ``recordsTrace`` is on.
    public var trace: GraphTrace {
        let (engine, nodes) = build.withLock { ($0.engine, $0.nodes) }
        if let engine { return engine.trace() }
        return GraphTrace(
            graph: name,
            entries: nodes.map { .init(index: $0.index, node: $0.name, start: nil, end: nil, outcome: .pending) })
    }
}
