/// What the engine must do after a state change, once its lock is released: enqueue the nodes that became
/// ready, cancel the operations of nodes that are no longer wanted, and account for nodes that were resolved.
struct GraphActions {
    /// Nodes to hand to the queue.
    var enqueue: [Int] = []
    /// Nodes already in the queue (enqueued or running) whose operations must be cancelled.
    var cancel: [Int] = []
    /// Nodes skipped before they were ever enqueued: their operations are cancelled, then enqueued so that they
    /// finish without running.
    var skipped: [Int] = []
    /// How many nodes were resolved (finished or skipped) by this change.
    var resolved = 0
}

/// Whether a node that the queue started may run its work.
enum BeginDecision {
    /// Run, with the first input error for a recovery node (`nil` when every input fulfilled).
    case run((any Error)?)
    /// Do not run: the graph failed or was cancelled, or nothing needs the node any more.
    case skip(GraphActions)
}

/// The state of one graph run, as a value: every event is a mutating method that returns the actions to perform.
///
/// The engine calls these methods under its lock and performs the actions after releasing it, so no user code and
/// no `OperationQueue` call ever runs under the lock. Each method does O(1) work per edge it touches; a failure
/// or a cancellation touches each node at most once more. Worklists replace recursion everywhere.
///
/// ## Rules
/// - A node is *ready* when all its inputs are resolved; it is enqueued if the per-graph limit has a permit, or
///   waits in FIFO order for one.
/// - A node whose input failed (or was skipped) is *skipped*: it never runs and passes the error on. A recovery
///   node instead runs, once all its inputs are resolved, with the first such error.
/// - A node none of whose dependents still needs it (each was skipped, or already has its input error) is
///   *doomed*: skipped if it has not started, cancelled if it has. This is how the siblings of a failed member of
///   a `when` stage are stopped when a `catch` follows the stage.
/// - An error that reaches a sink (a node nothing depends on) fails the graph: every pending node is skipped and
///   every running node cancelled. ``cancel(_:)`` does the same with `CancellationError`.
struct GraphStateMachine {
    enum Status: UInt8 {
        case pending, waiting, enqueued, running, done, skipped
    }

    enum Outcome: UInt8 {
        case none, fulfilled, failed, cancelled, skipped
    }

    private(set) var status: [Status]
    private(set) var outcome: [Outcome]
    private var cancelRequested: [Bool]
    private var released: [Bool]
    private var remaining: [Int]
    private var liveDependents: [Int]
    private var inputErrors: [Int: any Error] = [:]
    private(set) var errors: [Int: any Error] = [:]
    private(set) var starts: [Duration?]
    private(set) var ends: [Duration?]
    private let tracing: Bool
    private let limited: Bool
    private var permits: Int
    private var waiting: [Int] = []
    private var waitingHead = 0
    private(set) var failure: (any Error)?
    private var stopping = false
    private var unresolved: Int
    private var settled = false

    init(plan: GraphPlan, limit: Int?, tracing: Bool) {
        let count = plan.count
        status = [Status](repeating: .pending, count: count)
        outcome = [Outcome](repeating: .none, count: count)
        cancelRequested = [Bool](repeating: false, count: count)
        released = [Bool](repeating: false, count: count)
        remaining = (0..<count).map { plan.predecessorStart[$0 + 1] - plan.predecessorStart[$0] }
        liveDependents = (0..<count).map { plan.successorStart[$0 + 1] - plan.successorStart[$0] }
        self.tracing = tracing
        starts = tracing ? [Duration?](repeating: nil, count: count) : []
        ends = tracing ? [Duration?](repeating: nil, count: count) : []
        limited = limit != nil
        permits = limit ?? .max
        unresolved = count
    }

    // MARK: - Events

    /// The run starts: every node without dependencies is ready.
    mutating func start(_ plan: GraphPlan, at time: Duration?) -> GraphActions {
        var actions = GraphActions()
        for node in 0..<plan.count where remaining[node] == 0 {
            makeReady(node, at: time, &actions)
        }
        return actions
    }

    /// The queue started a node's operation: run it, or skip it if the graph stopped or nothing needs it.
    mutating func begin(_ node: Int, isObserver: Bool, at time: Duration?, _ plan: GraphPlan) -> BeginDecision {
        // An observer runs after the caller's operation, which has already run (or was cancelled): unless its
        // node was skipped before being enqueued, it only reads and reports the outcome.
        guard status[node] == .enqueued, isObserver || (!cancelRequested[node] && !stopping) else {
            var actions = GraphActions()
            if status[node] == .enqueued {
                if tracing { starts[node] = nil }
                resolve(node, as: .skipped, &actions)
                releasePermit(at: time, &actions)
                propagate(from: node, failure ?? CancellationError(), at: time, plan, &actions)
            }
            return .skip(actions)
        }
        status[node] = .running
        if isObserver { return .run(nil) }
        if tracing { starts[node] = time }
        return .run(inputErrors[node])
    }

    /// A node's work finished with `result`.
    mutating func complete(
        _ node: Int, with result: Result<Void, any Error>, at time: Duration?, _ plan: GraphPlan
    ) -> GraphActions {
        var actions = GraphActions()
        guard status[node] == .running else { return actions }
        if tracing { ends[node] = time }
        switch result {
        case .success:
            resolve(node, as: .fulfilled, &actions)
            releasePermit(at: time, &actions)
            for successor in plan.successors(of: node) {
                remaining[successor] -= 1
                if remaining[successor] == 0 && status[successor] == .pending {
                    makeReady(successor, at: time, &actions)
                }
            }
        case .failure(let error):
            errors[node] = error
            resolve(node, as: error is CancellationError ? .cancelled : .failed, &actions)
            releasePermit(at: time, &actions)
            propagate(from: node, error, at: time, plan, &actions)
        }
        return actions
    }

    /// The graph is cancelled: `nil` if it already finished, failed or was cancelled.
    mutating func cancel(_ plan: GraphPlan) -> GraphActions? {
        guard !stopping, !settled, unresolved > 0 else { return nil }
        var actions = GraphActions()
        fail(CancellationError(), &actions)
        return actions
    }

    /// Marks the run settled; returns its outcome the first time only.
    mutating func settle() -> Result<Void, any Error>? {
        guard !settled else { return nil }
        settled = true
        if let failure { return .failure(failure) }
        return .success(())
    }

    // MARK: - Transitions

    private mutating func resolve(_ node: Int, as result: Outcome, _ actions: inout GraphActions) {
        status[node] = result == .skipped ? .skipped : .done
        outcome[node] = result
        unresolved -= 1
        actions.resolved += 1
    }

    private mutating func makeReady(_ node: Int, at time: Duration?, _ actions: inout GraphActions) {
        guard permits > 0 else {
            status[node] = .waiting
            waiting.append(node)
            return
        }
        if limited { permits -= 1 }
        status[node] = .enqueued
        if tracing { starts[node] = time }
        actions.enqueue.append(node)
    }

    /// A node that held a permit (enqueued or running) was resolved: hand the permit to the next waiting node.
    private mutating func releasePermit(at time: Duration?, _ actions: inout GraphActions) {
        guard limited else { return }
        permits += 1
        while permits > 0 && waitingHead < waiting.count {
            let node = waiting[waitingHead]
            waitingHead += 1
            if status[node] == .waiting { makeReady(node, at: time, &actions) }
        }
        if waitingHead > 1024 && waitingHead * 2 > waiting.count {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
    }

    /// Passes a failure (or a skip) from `start` to its dependents, skipping them, readying recovery nodes, and
    /// failing the graph if it reaches a sink.
    private mutating func propagate(
        from start: Int, _ error: any Error, at time: Duration?, _ plan: GraphPlan, _ actions: inout GraphActions
    ) {
        var work: [(node: Int, error: any Error)] = [(start, error)]
        while let (node, error) = work.popLast() {
            if plan.isSink(node) { fail(error, &actions) }
            for successor in plan.successors(of: node) {
                remaining[successor] -= 1
                if inputErrors[successor] == nil {
                    inputErrors[successor] = error
                    releaseInputs(of: successor, plan, &actions, &work)
                }
                guard status[successor] == .pending else { continue }
                if plan.isRecovery[successor] {
                    if remaining[successor] == 0 { makeReady(successor, at: time, &actions) }
                } else {
                    resolve(successor, as: .skipped, &actions)
                    actions.skipped.append(successor)
                    work.append((successor, error))
                }
            }
        }
    }

    /// `node` no longer needs its inputs: each input that thereby loses its last dependent is doomed.
    private mutating func releaseInputs(
        of node: Int, _ plan: GraphPlan, _ actions: inout GraphActions, _ work: inout [(node: Int, error: any Error)]
    ) {
        var stack = [node]
        while let current = stack.popLast() {
            guard !released[current] else { continue }
            released[current] = true
            for input in plan.predecessors(of: current) {
                liveDependents[input] -= 1
                guard liveDependents[input] == 0 else { continue }
                switch status[input] {
                case .pending, .waiting:
                    resolve(input, as: .skipped, &actions)
                    actions.skipped.append(input)
                    stack.append(input)
                    work.append((input, CancellationError()))
                case .enqueued, .running:
                    requestCancel(input, &actions)
                case .done, .skipped:
                    break
                }
            }
        }
    }

    /// The graph fails with `error` (the first one wins): skip everything pending, cancel everything running.
    private mutating func fail(_ error: any Error, _ actions: inout GraphActions) {
        guard !stopping else { return }
        stopping = true
        failure = error
        for node in status.indices {
            switch status[node] {
            case .pending, .waiting:
                resolve(node, as: .skipped, &actions)
                actions.skipped.append(node)
            case .enqueued, .running:
                requestCancel(node, &actions)
            case .done, .skipped:
                break
            }
        }
    }

    private mutating func requestCancel(_ node: Int, _ actions: inout GraphActions) {
        guard !cancelRequested[node] else { return }
        cancelRequested[node] = true
        actions.cancel.append(node)
    }
}
