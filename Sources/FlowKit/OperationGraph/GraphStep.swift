import Foundation

/// One unit of work for an ``OperationChain`` stage, before it becomes a node: a block, a promise-returning
/// closure, an `async` function, or an `Operation`, with an optional name.
///
/// ``OperationChain/then(_:_:)-(String?,(Output)->U)`` takes closures directly; use steps for the members of a
/// ``OperationChain/when(_:)-(_)`` stage, or to mix kinds.
///
/// Each step receives the previous stage's value (`Input`) and produces its own (`Output`).
public struct GraphStep<Input: Sendable, Output: Sendable>: Sendable {
    @usableFromInline
    enum Work: Sendable {
        case block(@Sendable (Input) throws -> Output)
        case promise(@Sendable (Input) throws -> Promise<Output>)
        case async(@Sendable (Input) async throws -> Output)
        case operation(Operation, @Sendable (Operation) throws -> Output)
    }

    @usableFromInline
    let name: String?
    @usableFromInline
    let work: Work

    @inlinable
    init(name: String?, work: Work) {
        self.name = name
        self.work = work
    }

    /// A step that runs `body` on the queue.
    ///
    /// - Parameters:
    ///   - name: The node's name; `nil` names it after its index.
    ///   - body: Receives the previous stage's value; a thrown error fails the step.
    /// - Returns: The step.
    @inlinable
    public static func block(_ name: String? = nil, _ body: @escaping @Sendable (Input) throws -> Output) -> Self {
        GraphStep(name: name, work: .block(body))
    }

    /// A step that follows the promise `body` returns; its operation stays executing until the promise settles.
    ///
    /// - Parameters:
    ///   - name: The node's name; `nil` names it after its index.
    ///   - body: Receives the previous stage's value and returns the promise; a thrown error fails the step.
    /// - Returns: The step.
    @inlinable
    public static func promise(
        _ name: String? = nil,
        _ body: @escaping @Sendable (Input) throws -> Promise<Output>
    ) -> Self {
        GraphStep(name: name, work: .promise(body))
    }
}

extension GraphStep where Output == Void {
    /// A step that runs your `Operation` (the previous stage's value is not passed to it).
    ///
    /// - Parameters:
    ///   - operation: A fresh operation (checked when the graph starts).
    ///   - name: The node's name; `nil` uses the operation's `name`, or the index.
    /// - Returns: The step.
    public static func operation(_ operation: Operation, name: String? = nil) -> Self {
        GraphStep(name: name ?? operation.name, work: .operation(operation, { _ in () }))
    }
}

extension OperationGraph {
    /// Adds the node for `step`, reading its input from `input` when it runs.
    @inlinable
    func makeNode<Input: Sendable, Output: Sendable>(
        _ step: GraphStep<Input, Output>,
        input: StageValue<Input>,
        stage: GraphStage?
    ) -> GraphNode<Output> {
        switch step.work {
        case .block(let body):
            makeNode(name: step.name, stage: stage, role: .work) { box in
                (.sync { _ in box.capture { try body(input.read()) } }, nil)
            }
        case .promise(let body):
            makeNode(name: step.name, stage: stage, role: .work) { box in
                (.promise(into: box) { try body(input.read()) }, nil)
            }
        case .async(let body):
            makeNode(name: step.name, stage: stage, role: .work) { box in
                (
                    .promise(into: box) {
                        let value = try input.read()
                        return Promise { try await body(value) }
                    }, nil
                )
            }
        case .operation(let operation, let extract):
            makeNode(name: step.name, stage: stage, role: .work) { box in
                (.observing(operation, into: box, extract), operation)
            }
        }
    }
}

/// Where a chain's next stage finds the value of the stage before it.
@usableFromInline
enum StageValue<Value: Sendable>: Sendable {
    /// A value known when the chain was built (the start of a chain, an empty `when`).
    case constant(Value)
    /// The value of one node.
    case node(ResultBox<Value>)
    /// A value gathered from several nodes (a `when` stage).
    case gathered(@Sendable () throws -> Value)

    @inlinable
    func read() throws -> Value {
        switch self {
        case .constant(let value): value
        case .node(let box): try box.value()
        case .gathered(let gather): try gather()
        }
    }
}

/// The nodes of a chain's last stage, without an array for the common case of one.
@usableFromInline
enum StageNodes: Sendable {
    case none
    case one(AnyGraphNode)
    case many([AnyGraphNode])

    @usableFromInline
    var count: Int {
        switch self {
        case .none: 0
        case .one: 1
        case .many(let nodes): nodes.count
        }
    }

    /// Makes `node` depend on every node of the stage.
    @usableFromInline
    func precede(_ node: AnyGraphNode) {
        switch self {
        case .none: break
        case .one(let first): node.addDependency(on: first)
        case .many(let nodes): node.depends(on: nodes)
        }
    }
}
