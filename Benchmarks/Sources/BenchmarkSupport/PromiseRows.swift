import Benchmark

/// What FlowKit's promise rows (`PromiseBenchmarks`) and their peers' rows (`PromisePeerBenchmarks`, swift-nio)
/// share, so the two targets measure alike and run together: `--target 'PromiseBenchmarks|PromisePeerBenchmarks'`.
/// The peers are a target of their own so that CI's allocation check, which runs FlowKit's rows, builds no NIO.
public enum PromiseRows {
    /// Links in each chain row.
    public static let chainLength = 10_000
    /// Inputs of each `when` row.
    public static let whenWidth = 100_000

    /// Every promise row's defaults: wall clock, mallocs (gated in CI) and throughput, three warm-up iterations,
    /// up to 2 s or 1,000 iterations (less in the quick mode).
    public static var defaultConfiguration: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal, .throughput],
            warmupIterations: 3,
            maxDuration: BenchmarkRunMode.current.maxDuration(.seconds(2)),
            maxIterations: BenchmarkRunMode.current.maxIterations(1_000),
            thresholds: AllocationGate.thresholds
        )
    }

    /// The round-trip rows: a thousand round trips per iteration, reported per round trip.
    public static var perThousand: Benchmark.Configuration { .init(scalingFactor: .kilo) }
}
