import Benchmark

/// The tolerance `swift package benchmark thresholds check` applies to the committed malloc counts.
///
/// package-benchmark compares the p90 of a run with the p90 stored in `Thresholds/<swift version>/` and, for
/// each metric, uses the tolerances in the benchmark's configuration (strict — no deviation at all — when there
/// are none). A change of more than ``relativeTolerance`` percent is a regression (or an improvement, which the
/// CI script also reports, so that the committed counts follow the code). Only `mallocCountTotal` is stored and
/// checked: allocation counts are deterministic up to Dispatch's and the runtime's caches; wall time is not.
///
/// ```swift
/// Benchmark.defaultConfiguration = .init(
///     metrics: [.wallClock, .mallocCountTotal], thresholds: AllocationGate.thresholds)
/// ```
public enum AllocationGate {
    /// The largest accepted change of the p90 malloc count, in percent.
    ///
    /// ```swift
    /// AllocationGate.relativeTolerance   // 3.0
    /// ```
    public static let relativeTolerance = 3.0

    /// The per-metric tolerances to put in a benchmark's configuration.
    ///
    /// ```swift
    /// Benchmark("Chain", configuration: .init(thresholds: AllocationGate.thresholds)) { _ in }
    /// ```
    public static var thresholds: [BenchmarkMetric: BenchmarkThresholds] {
        [.mallocCountTotal: BenchmarkThresholds(relative: [.p90: relativeTolerance])]
    }
}
