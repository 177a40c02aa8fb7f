import Foundation

/// The frozen shape of a graph at start: who depends on whom, in compact adjacency arrays, and the operations
/// to enqueue. Built once, in O(V + E), after every check a graph must pass to start.
final class GraphPlan: Sendable {
    let explicitNames: [String?]
    let isRecovery: [Bool]
    let runners: OperationList<NodeOperation>
    let userOperations: OperationList<Operation?>
    /// `predecessors[predecessorStart[i] ..< predecessorStart[i + 1]]` are the nodes `i` depends on.
    let predecessorStart: [Int]
    let predecessors: [Int]
    /// `successors[successorStart[i] ..< successorStart[i + 1]]` are the nodes that depend on `i`.
    let successorStart: [Int]
    let successors: [Int]
    /// The caller's operations claimed for this run, released when it ends.
    let claimed: [ObjectIdentifier]

    var count: Int { isRecovery.count }

    func name(of node: Int) -> String {
        nodeName(explicitNames[node], node)
    }

    func predecessors(of node: Int) -> ArraySlice<Int> {
        predecessors[predecessorStart[node]..<predecessorStart[node + 1]]
    }

    func successors(of node: Int) -> ArraySlice<Int> {
        successors[successorStart[node]..<successorStart[node + 1]]
    }

    func isSink(_ node: Int) -> Bool {
        successorStart[node] == successorStart[node + 1]
    }

    /// Checks `nodes` and freezes them into a plan, or explains why the graph cannot run.
    ///
    /// Checks, in order: an empty graph, dependencies on another graph's nodes, cycles (Kahn's algorithm,
    /// iterative) of the graph's edges and then of those together with Foundation dependencies the caller's
    /// operations already have, and caller operations that are not fresh (executing, finished, cancelled, given
    /// twice, or claimed by another running graph). Foundation dependencies are added, and the caller's operations claimed, only
    /// once every check passed — and never for a `dryRun`, which only checks.
    init(graphName: String, nodes: [AnyGraphNode], dryRun: Bool = false) throws(GraphError) {
        let count = nodes.count
        guard count > 0 else { throw .emptyGraph(graph: graphName) }

        // Predecessor lists (CSR) and the foreign-node check.
        var predecessorStart = [Int](repeating: 0, count: count + 1)
        var predecessors: [Int] = []
        for node in nodes {
            let edges = node.dependencySnapshot
            if let foreign = edges.foreign { throw .foreignNode(node: foreign, dependent: node.name) }
            for dependency in edges.dependencies where dependency >= count {
                // Added to the graph after it was snapshotted: treat like a foreign node.
                throw .foreignNode(node: "#\(dependency)", dependent: node.name)
            }
            predecessors.append(contentsOf: edges.dependencies)
            predecessorStart[node.index + 1] = predecessors.count
        }

        let (successorStart, successors) = GraphPlan.successorLists(count, predecessorStart, predecessors)
        if let unmet = GraphPlan.unordered(count, predecessorStart, predecessors, successorStart, successors) {
            throw .cycle(nodes: GraphPlan.cycle(unmet: unmet, predecessorStart, predecessors).map { nodes[$0].name })
        }

        // The caller's operations may already depend on each other through Foundation's own `addDependency`
        // (directly, or through operations outside the graph). The queue honours those edges too, so a cycle
        // through them would wait forever: check the graph's edges and theirs together.
        let foundation = GraphPlan.foundationEdges(nodes)
        if !foundation.isEmpty {
            var lists = (0..<count).map { Array(predecessors[predecessorStart[$0]..<predecessorStart[$0 + 1]]) }
            for edge in foundation { lists[edge.dependent].append(edge.dependency) }
            var allStart = [0]
            for list in lists { allStart.append(allStart[allStart.count - 1] + list.count) }
            let all = lists.flatMap { $0 }
            let (allSuccessorStart, allSuccessors) = GraphPlan.successorLists(count, allStart, all)
            if let unmet = GraphPlan.unordered(count, allStart, all, allSuccessorStart, allSuccessors) {
                throw .cycle(nodes: GraphPlan.cycle(unmet: unmet, allStart, all).map { nodes[$0].name })
            }
        }

        // The caller's operations must be fresh and used once.
        var seen = Set<ObjectIdentifier>()
        var mine: [ObjectIdentifier] = []
        for node in nodes {
            guard let operation = node.userOperation else { continue }
            let id = ObjectIdentifier(operation)
            if operation.isFinished { throw .operationFinished(node: node.name) }
            if operation.isExecuting { throw .operationExecuting(node: node.name) }
            if operation.isCancelled { throw .operationCancelled(node: node.name) }
            if !seen.insert(id).inserted { throw .operationInUse(node: node.name) }
            mine.append(id)
        }
        if !mine.isEmpty {
            let taken = dryRun ? OperationRegistry.firstClaimed(of: mine) : OperationRegistry.claim(mine)
            if let taken, let node = nodes.first(where: { $0.userOperation.map(ObjectIdentifier.init) == taken }) {
                throw .operationInUse(node: node.name)
            }
        }

        // Foundation dependencies mirror the edges: each node's first operation depends on the operation each
        // predecessor's work runs in (a caller's operation, or FlowKit's). One addDependency per edge.
        for node in nodes where !dryRun {
            let head = node.userOperation ?? node.runner
            for position in predecessorStart[node.index]..<predecessorStart[node.index + 1] {
                head.addDependency(nodes[predecessors[position]].operation)
            }
            if let operation = node.userOperation { node.runner.addDependency(operation) }
        }

        self.explicitNames = nodes.map(\.explicitName)
        self.isRecovery = nodes.map(\.isRecovery)
        let order = GraphPlan.reverseReleaseOrder(count: count, predecessorStart, predecessors)
        self.runners = OperationList(nodes.map(\.runner), releaseOrder: order)
        self.userOperations = OperationList(nodes.map(\.userOperation), releaseOrder: order)
        self.predecessorStart = predecessorStart
        self.predecessors = predecessors
        self.successorStart = successorStart
        self.successors = successors
        self.claimed = dryRun ? [] : mine
    }

    /// The successor lists (CSR) of the predecessor lists. O(V + E).
    private static func successorLists(
        _ count: Int, _ predecessorStart: [Int], _ predecessors: [Int]
    ) -> (start: [Int], successors: [Int]) {
        var successorStart = [Int](repeating: 0, count: count + 1)
        for dependency in predecessors { successorStart[dependency + 1] += 1 }
        for index in 0..<count { successorStart[index + 1] += successorStart[index] }
        var successors = [Int](repeating: 0, count: predecessors.count)
        var fill = successorStart
        for node in 0..<count {
            for position in predecessorStart[node]..<predecessorStart[node + 1] {
                let dependency = predecessors[position]
                successors[fill[dependency]] = node
                fill[dependency] += 1
            }
        }
        return (successorStart, successors)
    }

    /// Kahn's algorithm, iterative: `nil` when every node can be ordered, else each node's count of unmet
    /// predecessors (the nodes left with some lie on or after a cycle). O(V + E).
    private static func unordered(
        _ count: Int, _ predecessorStart: [Int], _ predecessors: [Int], _ successorStart: [Int], _ successors: [Int]
    ) -> [Int]? {
        var unmet = (0..<count).map { predecessorStart[$0 + 1] - predecessorStart[$0] }
        var ready = (0..<count).filter { unmet[$0] == 0 }
        var visited = 0
        while let node = ready.popLast() {
            visited += 1
            for position in successorStart[node]..<successorStart[node + 1] {
                let successor = successors[position]
                unmet[successor] -= 1
                if unmet[successor] == 0 { ready.append(successor) }
            }
        }
        return visited < count ? unmet : nil
    }

    /// The edges Foundation holds between the caller's operations: `(dependency, dependent)` node pairs, found by
    /// walking each caller operation's `dependencies`, through operations outside the graph, until an operation
    /// of a graph node (the caller's or FlowKit's) is met. O(V + the Foundation edges walked).
    static func foundationEdges(_ nodes: [AnyGraphNode]) -> [(dependency: Int, dependent: Int)] {
        guard nodes.contains(where: { $0.userOperation != nil }) else { return [] }
        var nodeOf: [ObjectIdentifier: Int] = [:]
        for node in nodes {
            nodeOf[ObjectIdentifier(node.runner)] = node.index
            if let operation = node.userOperation { nodeOf[ObjectIdentifier(operation)] = node.index }
        }
        var edges: [(dependency: Int, dependent: Int)] = []
        for node in nodes {
            guard let operation = node.userOperation else { continue }
            var pending = operation.dependencies
            var seen = Set<ObjectIdentifier>()
            while let dependency = pending.popLast() {
                guard seen.insert(ObjectIdentifier(dependency)).inserted else { continue }
                if let index = nodeOf[ObjectIdentifier(dependency)] {
                    if index != node.index { edges.append((index, node.index)) }
                } else {
                    pending.append(contentsOf: dependency.dependencies)
                }
            }
        }
        return edges
    }

    /// One cycle among the nodes Kahn's algorithm could not order, in execution order, first node repeated.
    ///
    /// Every such node has an unmet predecessor that is also unordered, so walking predecessors from any of them
    /// must revisit a node: the walk between the two visits is a cycle. O(V), no recursion.
    private static func cycle(unmet: [Int], _ predecessorStart: [Int], _ predecessors: [Int]) -> [Int] {
        guard let start = unmet.firstIndex(where: { $0 > 0 }) else { return [] }
        var position = [Int: Int]()
        var walk: [Int] = []
        var node = start
        while position[node] == nil {
            position[node] = walk.count
            walk.append(node)
            let range = predecessorStart[node]..<predecessorStart[node + 1]
            guard let next = range.lazy.map({ predecessors[$0] }).first(where: { unmet[$0] > 0 }) else { break }
            node = next
        }
        guard let first = position[node] else { return walk }
        // The walk went from dependents to dependencies: reverse it to read in execution order, and start at the
        // node added first so the message does not depend on where the walk began.
        var cycle = Array(walk[first...].reversed())
        if let lowest = cycle.indices.min(by: { cycle[$0] < cycle[$1] }) {
            cycle = Array(cycle[lowest...] + cycle[..<lowest])
        }
        cycle.append(cycle[0])
        return cycle
    }

    /// A topological order (dependencies first); operations are released in its reverse, so freeing a long
    /// chain never recurses through `Operation`'s strong references to its dependencies. `nil` when the node
    /// indices already are one.
    private static func reverseReleaseOrder(count: Int, _ predecessorStart: [Int], _ predecessors: [Int]) -> [Int]? {
        // Nodes are usually added in dependency order already; check before sorting.
        var sorted = true
        for node in 0..<count where sorted {
            for position in predecessorStart[node]..<predecessorStart[node + 1] where predecessors[position] > node {
                sorted = false
                break
            }
        }
        if sorted { return nil }
        var successorsOf = [[Int]](repeating: [], count: count)
        var unmet = [Int](repeating: 0, count: count)
        for node in 0..<count {
            for position in predecessorStart[node]..<predecessorStart[node + 1] {
                successorsOf[predecessors[position]].append(node)
                unmet[node] += 1
            }
        }
        var ready = (0..<count).filter { unmet[$0] == 0 }
        var order: [Int] = []
        order.reserveCapacity(count)
        while let node = ready.popLast() {
            order.append(node)
            for successor in successorsOf[node] {
                unmet[successor] -= 1
                if unmet[successor] == 0 { ready.append(successor) }
            }
        }
        return order
    }
}

/// An array of operations that, when freed, releases them in reverse topological order: dependents before the
/// operations they depend on, so no release cascades through a long chain of `Operation.dependencies`.
final class OperationList<Element: Sendable>: @unchecked Sendable {
    // `@unchecked Sendable`: `elements` is read-only after `init`; `deinit` (which has exclusive access) is the
    // only mutation.
    private var elements: [Element]
    /// A topological order, or `nil` when the indices already are one (nodes added in dependency order).
    private let releaseOrder: [Int]?

    init(_ elements: [Element], releaseOrder: [Int]?) {
        self.elements = elements
        self.releaseOrder = releaseOrder
    }

    subscript(index: Int) -> Element {
        elements[index]
    }

    deinit {
        guard let releaseOrder else {
            while !elements.isEmpty { elements.removeLast() }
            return
        }
        var holding: [Element?] = elements.map { $0 }
        elements = []
        for index in releaseOrder.reversed() { holding[index] = nil }
    }
}

/// The caller's operations that belong to a running graph, so that the same operation given to two graphs is
/// rejected instead of being started twice (which Foundation answers with a crash).
enum OperationRegistry {
    private static let claimedOperations = LockedState(Set<ObjectIdentifier>())

    /// Claims every operation, or none: returns the first one already claimed.
    static func claim(_ operations: [ObjectIdentifier]) -> ObjectIdentifier? {
        claimedOperations.withLock { claimed in
            if let taken = operations.first(where: { claimed.contains($0) }) { return taken }
            claimed.formUnion(operations)
            return nil
        }
    }

    static func firstClaimed(of operations: [ObjectIdentifier]) -> ObjectIdentifier? {
        claimedOperations.withLock { claimed in operations.first(where: { claimed.contains($0) }) }
    }

    static func release(_ operations: [ObjectIdentifier]) {
        guard !operations.isEmpty else { return }
        claimedOperations.withLock { claimed in
            for operation in operations { claimed.remove(operation) }
        }
    }
}
