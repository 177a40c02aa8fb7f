import Foundation
import Synchronization

/// Runs one started graph: owns its state machine, hears from node operations, enqueues ready nodes, and settles
/// the graph's promise once every node is resolved and every operation it enqueued has finished.
///
/// Skipped nodes are enqueued too, cancelled: they finish at once without running, so every operation of the
/// graph has finished when it settles, and none waits on a dependency that would never finish.
///
/// Each event takes the lock once, computes ``GraphActions`` with ``GraphStateMachine``, and performs them after
/// releasing it. Completion is counted with one atomic counter, `outstanding` = unresolved nodes + operations
/// in flight (run or skipped): additions are counted before the operations are enqueued and an operation's own count is removed
/// last, so the counter reaches zero exactly once, when nothing of the graph is left running.
final class GraphEngine: Sendable {
    let plan: GraphPlan
    let queue: OperationQueue
    let name: String
    private let clock: GraphClock?
    private let origin: Duration
    private let state: LockedState<GraphStateMachine>
    private let outstanding: Atomic<Int>
    private let resolver: Resolver<Void>

    init(plan: GraphPlan, name: String, queue: OperationQueue, limit: Int?, clock: GraphClock?) {
        self.plan = plan
        self.name = name
        self.queue = queue
        self.clock = clock
        self.origin = clock?.now ?? .zero
        self.state = LockedState(GraphStateMachine(plan: plan, limit: limit, tracing: clock != nil))
        self.outstanding = Atomic(plan.count)
        self.resolver = Promise<Void>.pending().resolver
    }

    /// The promise settled when the run ends.
    var promise: Promise<Void> {
        resolver.promise
    }

    /// Enqueues the nodes without dependencies; cancelling ``promise`` cancels the run.
    func launch() {
        resolver.onCancel { [self] in cancel() }
        let time: Duration? = clock == nil ? nil : .zero
        let actions = state.withLock { $0.start(plan, at: time) }
        apply(actions, finishing: nil)
    }

    func begin(_ node: Int, isObserver: Bool) -> BeginDecision {
        let time = timestamp()
        return state.withLock { $0.begin(node, isObserver: isObserver, at: time, plan) }
    }

    func complete(_ node: Int, with result: Result<Void, any Error>) -> GraphActions {
        let time = timestamp()
        return state.withLock { $0.complete(node, with: result, at: time, plan) }
    }

    func cancel() {
        guard let actions = state.withLock({ $0.cancel(plan) }) else { return }
        apply(actions, finishing: nil)
    }

    /// Performs `actions`; `operation` is the node operation reporting, which finishes here — after the new work
    /// is counted, before it is enqueued.
    func apply(_ actions: GraphActions, finishing operation: NodeOperation?) {
        let added = actions.enqueue.count + actions.skipped.count
        var left = outstanding.wrappingAdd(added - actions.resolved, ordering: .acquiringAndReleasing).newValue
        operation?.markFinished()
        perform(actions)
        if operation != nil {
            left = outstanding.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue
        }
        if left == 0 { settle() }
    }

    private func perform(_ actions: GraphActions) {
        for node in actions.cancel {
            if let operation = plan.userOperations[node] {
                operation.cancel()  // its observer still runs after it, to report the outcome
            } else {
                plan.runners[node].cancel()
            }
        }
        if actions.enqueue.count == 1 && actions.skipped.isEmpty, plan.userOperations[actions.enqueue[0]] == nil {
            let runner = plan.runners[actions.enqueue[0]]
            runner.attach(self)
            queue.addOperation(runner)
            return
        }
        var batch: [Operation] = []
        batch.reserveCapacity(actions.enqueue.count + actions.skipped.count)
        for node in actions.skipped {
            // Skipped nodes are cancelled and still handed to the queue: a cancelled operation finishes without
            // running (`main()` or FlowKit's body is never called), and the operations that depend on it through
            // `Operation.dependencies` — such as a recovery node — are not held up by one that never finishes.
            let runner = plan.runners[node]
            if let operation = plan.userOperations[node] {
                operation.cancel()
                batch.append(operation)
            } else {
                runner.cancel()
            }
            runner.attach(self)
            batch.append(runner)
        }
        for node in actions.enqueue {
            let runner = plan.runners[node]
            runner.attach(self)
            if let operation = plan.userOperations[node] { batch.append(operation) }
            batch.append(runner)
        }
        if !batch.isEmpty { queue.addOperations(batch, waitUntilFinished: false) }
    }

    private func settle() {
        guard let result = state.withLock({ $0.settle() }) else { return }
        OperationRegistry.release(plan.claimed)
        resolver.resolve(result)
    }

    private func timestamp() -> Duration? {
        guard let clock else { return nil }
        return clock.now - origin
    }

    /// The run so far, node by node.
    func trace() -> GraphTrace {
        state.withLock { state in
            let entries = (0..<plan.count).map { node in
                GraphTrace.Entry(
                    index: node,
                    node: plan.name(of: node),
                    start: state.starts.isEmpty ? nil : state.starts[node],
                    end: state.ends.isEmpty ? nil : state.ends[node],
                    outcome: GraphEngine.outcome(of: node, in: state)
                )
            }
            return GraphTrace(graph: name, entries: entries)
        }
    }

    private static func outcome(of node: Int, in state: GraphStateMachine) -> GraphTrace.Outcome {
        switch state.outcome[node] {
        case .fulfilled: return .fulfilled
        case .failed: return .failed(state.errors[node].map { String(describing: $0) } ?? "")
        case .cancelled: return .cancelled
        case .skipped: return .skipped
        case .none: return state.status[node] == .running ? .running : .pending
        }
    }
}
