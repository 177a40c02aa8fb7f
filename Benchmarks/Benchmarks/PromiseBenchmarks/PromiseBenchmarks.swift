// Promise benchmarks: each FlowKit operation beside its baselines; its peers (swift-nio) are PromisePeerBenchmarks.
//
// Run both: swift package --disable-sandbox benchmark --target 'PromiseBenchmarks|PromisePeerBenchmarks'
// Ratios in Benchmarks/README.md compare rows of one run; malloc counts are deterministic, wall time is not.

import Benchmark
import BenchmarkSupport
import Dispatch
import FlowKit

private let serial = DispatchQueue(label: "bench.serial")
private let serialExecutor = FlowExecutor.queue(serial)
private let chainLength = PromiseRows.chainLength
private let whenWidth = PromiseRows.whenWidth

/// Waits until every job queued on `serial` so far has run.
private func drainSerialQueue() {
    serial.sync {}
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = PromiseRows.defaultConfiguration
    let perThousand = PromiseRows.perThousand

    // MARK: 1. Round trip: pending → continuation on a serial queue → resolve

    Benchmark("RoundTrip: FlowKit pending → map(on: serial queue) → fulfill", configuration: perThousand) { benchmark in
        for index in benchmark.scaledIterations {
            let (promise, resolver) = Promise<Int>.pending()
            blackHole(promise.map(on: serialExecutor) { $0 &+ 1 })
            resolver.fulfill(index)
        }
        drainSerialQueue()
    }

    Benchmark("RoundTrip: raw closure + DispatchQueue.async", configuration: perThousand) { benchmark in
        for index in benchmark.scaledIterations {
            let continuation: @Sendable (Int) -> Void = { blackHole($0 &+ 1) }
            serial.async { continuation(index) }
        }
        drainSerialQueue()
    }

    Benchmark("RoundTrip: DispatchGroup enter → async → leave", configuration: perThousand) { benchmark in
        let group = DispatchGroup()
        for index in benchmark.scaledIterations {
            group.enter()
            serial.async {
                blackHole(index &+ 1)
                group.leave()
            }
        }
        group.wait()
    }

    Benchmark("RoundTrip: FlowKit pending → map(on: .immediate) → fulfill", configuration: perThousand) { benchmark in
        for index in benchmark.scaledIterations {
            let (promise, resolver) = Promise<Int>.pending()
            blackHole(promise.map(on: .immediate) { $0 &+ 1 })
            resolver.fulfill(index)
        }
    }

    Benchmark("RoundTrip awaited: FlowKit try await map(on: serial queue).value", configuration: perThousand) {
        benchmark in
        for index in benchmark.scaledIterations {
            let (promise, resolver) = Promise<Int>.pending()
            let mapped = promise.map(on: serialExecutor) { $0 &+ 1 }
            resolver.fulfill(index)
            blackHole(try await mapped.value)
        }
    }

    // Deterministic twin of the row above, and the one the allocation gate checks: the await always suspends (the
    // promise is pending when the task reaches it) and is always resumed on the same thread, by the fulfil.
    Benchmark(
        "RoundTrip awaited, manual executor: FlowKit try await .value suspends, fulfill resumes it",
        configuration: perThousand
    ) { benchmark in
        let executor = ManualTaskExecutor()
        for index in benchmark.scaledIterations {
            let (promise, resolver) = Promise<Int>.pending()
            let mapped = promise.map(on: .immediate) { $0 &+ 1 }
            let task = Task(executorPreference: executor) { try await mapped.value }
            executor.runUntilIdle()
            resolver.fulfill(index)
            executor.runUntilIdle()
            blackHole(try await task.value)
        }
    }

    Benchmark("RoundTrip awaited: withCheckedContinuation + DispatchQueue.async", configuration: perThousand) {
        benchmark in
        for index in benchmark.scaledIterations {
            let value = await withCheckedContinuation { continuation in
                serial.async { continuation.resume(returning: index &+ 1) }
            }
            blackHole(value)
        }
    }

    // MARK: 2. A chain of 10,000 links (divide by 10,000 for the per-link cost)

    Benchmark("Chain10k: FlowKit then(on: serial queue) ×10,000") { benchmark in
        for _ in benchmark.scaledIterations {
            let (root, resolver) = Promise<Int>.pending()
            var end = root
            for _ in 0..<chainLength { end = end.then(on: serialExecutor) { Promise(value: $0 &+ 1) } }
            resolver.fulfill(0)
            blackHole(try await end.value)
        }
    }

    Benchmark("Chain10k: FlowKit map(on: serial queue) ×10,000") { benchmark in
        for _ in benchmark.scaledIterations {
            let (root, resolver) = Promise<Int>.pending()
            var end = root
            for _ in 0..<chainLength { end = end.map(on: serialExecutor) { $0 &+ 1 } }
            resolver.fulfill(0)
            blackHole(try await end.value)
        }
    }

    Benchmark("Chain10k: raw DispatchQueue.async hops ×10,000") { benchmark in
        for _ in benchmark.scaledIterations {
            let value = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                @Sendable func hop(_ remaining: Int, _ value: Int) {
                    if remaining == 0 {
                        continuation.resume(returning: value)
                    } else {
                        serial.async { hop(remaining - 1, value &+ 1) }
                    }
                }
                hop(chainLength, 0)
            }
            blackHole(value)
        }
    }

    Benchmark(
        "Chain1M: FlowKit map(on: .immediate) ×1,000,000 completes (correctness)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxIterations: 3)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let (root, resolver) = Promise<Int>.pending()
            var end = root
            for _ in 0..<1_000_000 { end = end.map(on: .immediate) { $0 &+ 1 } }
            resolver.fulfill(0)
            blackHole(end.result)
        }
    }

    // MARK: 3. when over 100,000 resolved inputs (divide by 100,000 for the per-element cost)

    Benchmark("When100k: FlowKit when(fulfilled:) over resolved promises") { benchmark in
        let inputs = (0..<whenWidth).map { Promise(value: $0) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(when(fulfilled: inputs).result)
        }
        benchmark.stopMeasurement()
    }

    Benchmark("When100k: FlowKit when(fulfilled:) over pending promises, then fulfilled") { benchmark in
        for _ in benchmark.scaledIterations {
            let pairs = (0..<whenWidth).map { _ in Promise<Int>.pending() }
            benchmark.startMeasurement()
            let all = when(fulfilled: pairs.map(\.promise))
            for (index, pair) in pairs.enumerated() { pair.resolver.fulfill(index) }
            blackHole(all.result)
            benchmark.stopMeasurement()
        }
    }

    Benchmark("When100k: DispatchGroup enter/leave ×100,000 then notify") { benchmark in
        for _ in benchmark.scaledIterations {
            let group = DispatchGroup()
            var values = [Int](repeating: 0, count: whenWidth)
            for index in 0..<whenWidth {
                group.enter()
                values[index] = index
                group.leave()
            }
            group.wait()
            blackHole(values)
        }
    }

    Benchmark("When100k: task group of 100,000 child tasks", configuration: .init(maxIterations: 5)) { benchmark in
        for _ in benchmark.scaledIterations {
            let values = await withTaskGroup(of: (Int, Int).self) { group in
                for index in 0..<whenWidth { group.addTask { (index, index) } }
                var values = [Int](repeating: 0, count: whenWidth)
                for await (index, value) in group { values[index] = value }
                return values
            }
            blackHole(values)
        }
    }
}
