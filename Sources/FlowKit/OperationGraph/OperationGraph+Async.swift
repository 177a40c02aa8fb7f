/// The async façade of operation graphs: `async` nodes and steps, and `run()` to await a graph or chain.
///
/// Everything the promise API does is available here, and a graph can be built from `async` functions alone.
///
/// Each `async` node runs in its own `Task`, started when the node's operation starts; the operation stays
/// executing until the function returns. Cancelling the graph cancels those tasks.
extension OperationGraph {
    /// Starts the graph and waits until it finished.
    ///
    /// Cancelling the waiting task cancels the graph; `run()` returns (throwing `CancellationError`) once the
    /// running nodes have stopped — structured, unlike cancelling the promise of ``start()``.
    ///
    /// - Throws: The first unhandled error, `CancellationError`, or a ``GraphError`` if the graph cannot start.
    public func run() async throws {
        let promise = start()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                promise.subscribe(dependent: false) { continuation.resume(with: $0) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Adds a node that runs the `async` function `body` in a new task; the node's operation stays executing
    /// until it returns.
    ///
    /// - Parameters:
    ///   - name: The node's name; `nil` names it after its index.
    ///   - body: The work; a thrown error fails the node. It sees cancellation as task cancellation.
    /// - Returns: The node.
    @discardableResult
    public func add<Output: Sendable>(
        _ name: String? = nil,
        _ body: @escaping @Sendable () async throws -> Output
    ) -> GraphNode<Output> {
        makeNode(name: name, stage: nil, role: .work) { box in (.task(into: box, body), nil) }
    }

    /// Adds an `async` node that runs after `node` fulfilled and receives its value.
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
        _ body: @escaping @Sendable (Input) async throws -> Output
    ) -> GraphNode<Output> {
        let input = node.box
        return makeNode(name: name, stage: nil, role: .work) { box in
            (
                .promise(into: box) {
                    let value = try input.value()
                    return Promise { try await body(value) }
                }, nil
            )
        }.depends(on: node)
    }
}

extension GraphStep {
    /// A step that runs the `async` function `body` in a new task.
    ///
    /// - Parameters:
    ///   - name: The node's name; `nil` names it after its index.
    ///   - body: Receives the previous stage's value; a thrown error fails the step.
    /// - Returns: The step.
    public static func async(
        _ name: String? = nil,
        _ body: @escaping @Sendable (Input) async throws -> Output
    ) -> Self {
        GraphStep(name: name, work: .async(body))
    }
}

extension OperationChain {
    /// Adds a stage that runs the `async` function `body` with the previous stage's value.
    ///
    /// - Parameters:
    ///   - name: The node's name; `nil` names it after its index.
    ///   - body: Receives the previous stage's value; a thrown error fails the chain (up to a `catch`).
    /// - Returns: The chain, now ending with `body`'s value.
    public func then<U: Sendable>(
        _ name: String? = nil,
        _ body: @escaping @Sendable (Output) async throws -> U
    ) -> OperationChain<U> {
        then(.async(name, body))
    }

    /// Starts the chain and waits for the last stage's value.
    ///
    /// Cancelling the waiting task cancels the chain; `run()` throws `CancellationError` once the running steps
    /// have stopped.
    ///
    /// - Returns: The last stage's value.
    /// - Throws: The first unhandled error, `CancellationError`, or a ``GraphError`` if the chain cannot start.
    public func run() async throws -> Output {
        try await graph.run()
        return try value.read()
    }
}
