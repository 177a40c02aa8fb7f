// The promise rows' peers: swift-nio's futures beside FlowKit's rows in PromiseBenchmarks, measured alike
// (PromiseRows). Run together:
//   swift package --disable-sandbox benchmark --target 'PromiseBenchmarks|PromisePeerBenchmarks'

import Benchmark
import BenchmarkSupport
import NIOCore
import NIOEmbedded
import NIOPosix

private let nioGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
private let chainLength = PromiseRows.chainLength
private let whenWidth = PromiseRows.whenWidth

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = PromiseRows.defaultConfiguration
    let perThousand = PromiseRows.perThousand

    Benchmark("RoundTrip: NIO EventLoopPromise → map → succeed (1-thread group)", configuration: perThousand) {
        benchmark in
        let loop = nioGroup.next()
        for index in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            blackHole(promise.futureResult.map { $0 &+ 1 })
            promise.succeed(index)
        }
        try loop.submit {}.wait()
    }

    Benchmark("RoundTrip: NIO EmbeddedEventLoop promise → map → succeed", configuration: perThousand) { benchmark in
        let loop = EmbeddedEventLoop()
        for index in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            blackHole(promise.futureResult.map { $0 &+ 1 })
            promise.succeed(index)
        }
    }

    Benchmark("Chain10k: NIO EventLoopFuture flatMap ×10,000 (1-thread group)") { benchmark in
        let loop = nioGroup.next()
        for _ in benchmark.scaledIterations {
            let root = loop.makePromise(of: Int.self)
            var end = root.futureResult
            for _ in 0..<chainLength { end = end.flatMap { loop.makeSucceededFuture($0 &+ 1) } }
            root.succeed(0)
            blackHole(try end.wait())
        }
    }

    Benchmark("When100k: NIO whenAllSucceed over succeeded futures (Embedded)") { benchmark in
        let loop = EmbeddedEventLoop()
        let inputs = (0..<whenWidth).map { loop.makeSucceededFuture($0) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try EventLoopFuture.whenAllSucceed(inputs, on: loop).wait())
        }
        benchmark.stopMeasurement()
    }
}
