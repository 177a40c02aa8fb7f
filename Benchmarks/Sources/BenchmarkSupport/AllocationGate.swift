import Benchmark

/// The tolerance `swift package benchmark thresholds check` applies to the committed malloc counts.
///
/// package-benchmark compares the p90 of a run with the p90 stored in `Thresholds/swift-<version>/` and, for
/// each metric, uses the tolerances in the benchmark's configuration (strict — no deviation at all — when there
/// are none); a relative and an absolute tolerance are each checked on their own. A change of more than
/// ``absoluteTolerance`` mallocs is a regression (or an improvement, which fails the CI script too, so that the
/// committed counts follow the code). Only `mallocCountTotal` is stored and checked: allocation counts are
/// deterministic up to a few allocations of Dispatch's and the runtime's caches; wall time is not.
///
/// Why absolute: the gated counts range from 18 (`when` over resolved promises) to 4,000,000 (a million-link
/// chain). A relative tolerance small enough to matter for the large ones fails the small ones on one stray
/// malloc; 100 mallocs absorbs the caches' noise, and every gated benchmark repeats its work at least 1,000 times
/// per measurement, so one more malloc per promise, link or node (+1,000 or more) always fails the check.
public enum AllocationGate {
    /// The largest accepted change of the p90 malloc count, in mallocs per measurement.
    public static let absoluteTolerance = 100

    /// The per-metric tolerances to put in a benchmark's configuration.
    public static var thresholds: [BenchmarkMetric: BenchmarkThresholds] {
        [.mallocCountTotal: BenchmarkThresholds(absolute: [.p90: absoluteTolerance])]
    }
}
