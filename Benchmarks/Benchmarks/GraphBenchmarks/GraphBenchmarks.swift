// Operation-graph benchmarks: FlowKit's OperationGraph and OperationChain beside the same graph built by hand
// with BlockOperation + addDependency on the same kind of queue, and beside a task group, in the same run.
//
// Run: swift package --disable-sandbox benchmark --target GraphBenchmarks
// Divide by 10,000 for the per-node cost.

import Benchmark
import BenchmarkSupport
import FlowKit
import Foundation

private let nodeCount = 10_000

private func serialQueue() -> OperationQueue {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    return queue
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], warmupIterations: 1,
        maxDuration: BenchmarkRunMode.current.maxDuration(.seconds(3)),
        maxIterations: BenchmarkRunMode.current.maxIterations(50), thresholds: AllocationGate.thresholds)

    // MARK: 10,000-node chain on a serial queue

    Benchmark("GraphChain10k: hand-built BlockOperation + addDependency") { benchmark in
        for _ in benchmark.scaledIterations {
            let queue = serialQueue()
            var previous: BlockOperation?
            var operations: [BlockOperation] = []
            operations.reserveCapacity(nodeCount)
            for index in 0..<nodeCount {
                let operation = BlockOperation { blackHole(index) }
                if let previous { operation.addDependency(previous) }
                operations.append(operation)
                previous = operation
            }
            queue.addOperations(operations, waitUntilFinished: true)
        }
    }

    Benchmark("GraphChain10k: OperationGraph with explicit dependencies") { benchmark in
        for _ in benchmark.scaledIterations {
            let graph = OperationGraph(name: "chain", queue: serialQueue())
            var previous: GraphNode<Int>?
            for index in 0..<nodeCount {
                let node = graph.add { index }
                if let previous { node.depends(on: previous) }
                previous = node
            }
            try await graph.run()
        }
    }

    Benchmark("GraphChain10k: OperationChain .then ×10,000") { benchmark in
        for _ in benchmark.scaledIterations {
            var chain = OperationChain(on: serialQueue(), name: "chain").then("0") { 0 }
            for _ in 1..<nodeCount { chain = chain.then { $0 &+ 1 } }
            blackHole(try await chain.run())
        }
    }

    Benchmark("GraphChain10k: task group, one child after another") { benchmark in
        for _ in benchmark.scaledIterations {
            // Each child starts once the previous one's value arrived: the structured-concurrency chain.
            let last = await withTaskGroup(of: Int.self) { group in
                var value = 0
                for _ in 0..<nodeCount {
                    let input = value
                    group.addTask { input &+ 1 }
                    value = await group.next() ?? value
                }
                return value
            }
            blackHole(last)
        }
    }

    // MARK: 10,000-wide fan-out on a serial queue

    Benchmark("GraphFanOut10k: hand-built BlockOperation + addDependency") { benchmark in
        for _ in benchmark.scaledIterations {
            let queue = serialQueue()
            let root = BlockOperation {}
            let members = (0..<nodeCount).map { index in
                let operation = BlockOperation { blackHole(index) }
                operation.addDependency(root)
                return operation
            }
            queue.addOperations([root] + members, waitUntilFinished: true)
        }
    }

    Benchmark("GraphFanOut10k: OperationGraph with explicit dependencies") { benchmark in
        for _ in benchmark.scaledIterations {
            let graph = OperationGraph(name: "fan-out", queue: serialQueue())
            let root = graph.add { 0 }
            for index in 0..<nodeCount { graph.add { index }.depends(on: root) }
            try await graph.run()
        }
    }

    Benchmark("GraphFanOut10k: OperationChain .when([10,000 steps])") { benchmark in
        for _ in benchmark.scaledIterations {
            let steps: [GraphStep<Int, Int>] = (0..<nodeCount).map { index in .block { $0 &+ index } }
            blackHole(try await OperationChain(on: serialQueue(), name: "fan-out").then("root") { 0 }.when(steps).run())
        }
    }

    Benchmark("GraphFanOut10k: task group of 10,000 children after a root") { benchmark in
        for _ in benchmark.scaledIterations {
            let root = await Task { 0 }.value
            let sum = await withTaskGroup(of: Int.self) { group in
                for index in 0..<nodeCount { group.addTask { root &+ index } }
                return await group.reduce(0, &+)
            }
            blackHole(sum)
        }
    }
}
