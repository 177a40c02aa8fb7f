import Foundation

/// Builds an ``OperationGraph`` from a readable chain of stages: `.then(…)` runs a step after the whole previous
/// stage, `.when([…])` runs several steps concurrently, `.catch { … }` and `.recover { … }` handle failures.
///
/// Every stage becomes one or more `Operation`s on the queue, and each depends only on the operations of the
/// stage right before it — `then(1).when([2, 3]).then(4)` gives `2 → 1`, `3 → 1`, `4 → 2`, `4 → 3`, nothing else.
/// (Between two `when` stages of several members each, the chain adds one small *join* node, so that *m* then
/// *k* members cost *m + k* dependencies rather than *m × k*.)
///
/// ## Values
/// Each stage hands its value to the next: a `then` step's value, or for a `when` stage an array of its members'
/// values **in member order** (whatever order they finish in). A stage of plain `Operation`s hands on `Void`. The
/// value of the last stage is the value of ``start()`` and ``run()``.
///
/// ## Failures and cancellation
/// As in ``OperationGraph``: the first failure skips every later stage up to the next `catch`/`recover` (those
/// never run: their operations are cancelled and FlowKit does not call them), and cancels the failed step's
/// siblings still running in the same `when` stage. A `catch` or `recover` receives that first error and the
/// chain continues after it; without one, the chain fails with it. ``cancel()``, cancelling the promise from
/// ``start()``, or cancelling the task awaiting ``run()`` stops everything with `CancellationError`.
///
/// - Note: A chain is a value; each call returns a new one. Calling `then` twice on the same chain branches it:
///   both branches belong to the same graph, and starting either starts both.
public struct OperationChain<Output: Sendable>: Sendable {
    /// The graph the chain builds: for its ``OperationGraph/trace``, diagrams, ``OperationGraph/nodes`` or queue.
    public let graph: OperationGraph

    // The builder is inlinable (down to the node's body and result box), so that a client module specialises
    // the stage-to-stage value passing for its types instead of running it as unspecialised generic code.

    /// The nodes of the last stage, which the next stage depends on.
    @usableFromInline
    let tail: StageNodes
    /// Where the last stage's value is read once it fulfilled.
    @usableFromInline
    let value: StageValue<Output>
    /// How many stages the chain has.
    @usableFromInline
    let stages: Int

    @inlinable
    init(graph: OperationGraph, tail: StageNodes, value: StageValue<Output>, stages: Int) {
        self.graph = graph
        self.tail = tail
        self.value = value
        self.stages = stages
    }

    // MARK: - Stages

    /// Adds a stage of one step that runs after the whole previous stage and receives its value.
    ///
    /// - Parameter step: The step.
    /// - Returns: The chain, now ending with the step's value.
    @inlinable
    public func then<U: Sendable>(_ step: GraphStep<Output, U>) -> OperationChain<U> {
        let node = graph.makeNode(step, input: value, stage: GraphStage(number: stages + 1, isWhen: false))
        tail.precede(node)
        return OperationChain<U>(graph: graph, tail: .one(node), value: .node(node.box), stages: stages + 1)
    }

    /// Adds a stage that runs `body` with the previous stage's value.
    ///
    /// - Parameters:
    ///   - name: The node's name; `nil` names it after its index.
    ///   - body: Receives the previous stage's value; a thrown error fails the chain (up to a `catch`).
    /// - Returns: The chain, now ending with `body`'s value.
    @inlinable
    public func then<U: Sendable>(
        _ name: String? = nil,
        _ body: @escaping @Sendable (Output) throws -> U
    ) -> OperationChain<U> {
        then(.block(name, body))
    }

    /// Adds a stage that follows the promise `body` returns.
    ///
    /// - Parameters:
    ///   - name: The node's name; `nil` names it after its index.
    ///   - body: Receives the previous stage's value and returns the promise to follow.
    /// - Returns: The chain, now ending with the promise's value.
    @inlinable
    public func then<U: Sendable>(
        _ name: String? = nil,
        promise body: @escaping @Sendable (Output) throws -> Promise<U>
    ) -> OperationChain<U> {
        then(.promise(name, body))
    }

    /// Adds a stage that runs your `Operation` after the whole previous stage.
    ///
    /// - Parameters:
    ///   - operation: A fresh operation (checked when the graph starts).
    ///   - name: The node's name; `nil` uses the operation's `name`, or the index.
    /// - Returns: The chain, now ending with `Void`.
    public func then(_ operation: Operation, name: String? = nil) -> OperationChain<Void> {
        then(.operation(operation, name: name))
    }

    /// Adds a stage whose steps run concurrently (as far as the queue and the graph's limit allow), each with the
    /// previous stage's value; the next stage receives their values as an array in member order.
    ///
    /// An empty array adds no node and hands on `[]`; the next stage still waits for the previous one.
    ///
    /// - Parameter steps: The stage's members.
    /// - Returns: The chain, now ending with the members' values in member order.
    /// - Complexity: O(*k*) dependencies for *k* members (plus one join node after a multi-member stage).
    @inlinable
    public func when<U: Sendable>(_ steps: [GraphStep<Output, U>]) -> OperationChain<[U]> {
        guard !steps.isEmpty else {
            return OperationChain<[U]>(graph: graph, tail: tail, value: .constant([]), stages: stages)
        }
        let stage = GraphStage(number: stages + 1, isWhen: true)
        let inputs = joined(before: steps.count)
        let nodes = steps.map { step in
            let node = graph.makeNode(step, input: value, stage: stage)
            inputs.precede(node)
            return node
        }
        let boxes = nodes.map(\.box)
        return OperationChain<[U]>(
            graph: graph, tail: .many(nodes), value: .gathered { try boxes.map { try $0.value() } }, stages: stages + 1)
    }

    /// Adds a stage of your `Operation`s, run concurrently.
    ///
    /// - Parameter operations: Fresh operations (checked when the graph starts).
    /// - Returns: The chain, now ending with `Void`.
    public func when(_ operations: [Operation]) -> OperationChain<Void> {
        let chain = when(operations.map { GraphStep<Output, Void>.operation($0) })
        return OperationChain<Void>(graph: graph, tail: chain.tail, value: .constant(()), stages: chain.stages)
    }

    /// Handles a failure of the stages before: runs `body` with the first error, and the chain continues with
    /// `Void`. When nothing failed, `body` does not run.
    ///
    /// - Parameters:
    ///   - name: The node's name (`catch` by default).
    ///   - policy: Which errors `body` handles; by default all but `CancellationError`, which still fails the
    ///     chain.
    ///   - body: Receives the first error.
    /// - Returns: The chain, now ending with `Void`.
    public func `catch`(
        _ name: String? = nil,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> OperationChain<Void> {
        recovery(name: name ?? "catch", policy: policy, input: .constant(()), handler: body)
    }

    /// Turns a failure of the stages before into a value, so the chain continues either way: with the previous
    /// stage's value if nothing failed, with `body`'s if something did.
    ///
    /// - Parameters:
    ///   - name: The node's name (`recover` by default).
    ///   - policy: Which errors `body` handles; by default all but `CancellationError`.
    ///   - body: Receives the first error; returns a replacement value, or throws to keep the chain failed.
    /// - Returns: The chain, still ending with `Output`.
    public func recover(
        _ name: String? = nil,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) throws -> Output
    ) -> OperationChain<Output> {
        recovery(name: name ?? "recover", policy: policy, input: value, handler: body)
    }

    private func recovery<U: Sendable>(
        name: String,
        policy: CatchPolicy,
        input: StageValue<U>,
        handler: @escaping @Sendable (any Error) throws -> U
    ) -> OperationChain<U> {
        let stage = GraphStage(number: stages + 1, isWhen: false)
        let node = graph.makeNode(name: name, stage: stage, role: .recovery) { box in
            (.recovery(into: box, policy: policy, input: input.read, handler: handler), nil)
        }
        tail.precede(node)
        return OperationChain<U>(graph: graph, tail: .one(node), value: .node(node.box), stages: stages + 1)
    }

    /// The nodes a new stage of `members` members should depend on: the last stage, or a join node after it
    /// when both stages have several members.
    @usableFromInline
    func joined(before members: Int) -> StageNodes {
        guard tail.count > 1 && members > 1 else { return tail }
        let join = graph.makeNode(name: "end of stage \(stages)", stage: nil, role: .join) { box in
            (.value(into: box) { () }, nil)
        }
        tail.precede(join)
        return .one(join)
    }

    // MARK: - Running

    /// Starts the chain's graph.
    ///
    /// - Returns: A promise of the last stage's value; rejected with the first unhandled error,
    ///   `CancellationError`, or a ``GraphError`` if the graph cannot start (an empty chain, a reused operation…).
    ///   Cancelling it cancels the chain.
    @inlinable
    public func start() -> Promise<Output> {
        let value = self.value
        return graph.start().map(on: .immediate) { try value.read() }
    }

    /// Cancels the chain: see ``OperationGraph/cancel()``.
    public func cancel() {
        graph.cancel()
    }
}

extension OperationChain where Output == Void {
    /// Starts a chain on `queue` (or on a queue of its own).
    ///
    /// - Parameters:
    ///   - queue: Where the operations run; `nil` creates a queue for this chain.
    ///   - name: A name for errors, traces and diagrams.
    ///   - maxConcurrentNodes: At most this many of the chain's steps run at once, without changing the queue.
    ///   - recordsTrace: Whether to record start and end times for the graph's ``OperationGraph/trace``.
    ///   - clock: The clock for those times.
    public init(
        on queue: OperationQueue? = nil,
        name: String = "chain",
        maxConcurrentNodes: Int? = nil,
        recordsTrace: Bool = false,
        clock: GraphClock = .continuous
    ) {
        self.init(
            graph: OperationGraph(
                name: name, queue: queue, maxConcurrentNodes: maxConcurrentNodes, recordsTrace: recordsTrace,
                clock: clock))
    }

    /// Starts a chain that adds its stages to `graph` (after whatever nodes it already has, which the first stage
    /// does not depend on).
    ///
    /// - Parameter graph: The graph to build.
    public init(graph: OperationGraph) {
        self.init(graph: graph, tail: .none, value: .constant(()), stages: 0)
    }
}
