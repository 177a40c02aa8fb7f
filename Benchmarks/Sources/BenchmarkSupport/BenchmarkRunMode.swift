import Foundation

/// How long the benchmarks run: the full run for the README tables, or a quick one for CI and `quick.sh`.
///
/// The quick mode is chosen by the environment variable `HEALTHFLOW_BENCH_QUICK=1`, which package-benchmark passes
/// on to every benchmark process. It keeps each benchmark's warm-up and cuts its iterations, so the allocation
/// check in CI and the quick subset finish in seconds per benchmark.
public enum BenchmarkRunMode: Sendable {
    /// Every benchmark runs its configured iterations and duration.
    case full
    /// Few iterations and a short duration per benchmark.
    case quick

    /// The mode of this process: ``quick`` when `HEALTHFLOW_BENCH_QUICK` is set to anything but `0`.
    public static var current: BenchmarkRunMode {
        let value = ProcessInfo.processInfo.environment["HEALTHFLOW_BENCH_QUICK"] ?? ""
        return value.isEmpty || value == "0" ? .full : .quick
    }

    /// The iteration cap to use: `full` in the full mode, at most `quick` (default 10) in the quick mode.
    ///
    /// - Parameters:
    ///   - full: The cap of a full run.
    ///   - quick: The cap of a quick run.
    /// - Returns: The cap for this mode.
    public func maxIterations(_ full: Int, quick: Int = 10) -> Int {
        self == .full ? full : min(full, quick)
    }

    /// The time cap to use: `full` in the full mode, at most `quick` (default 1 s) in the quick mode.
    ///
    /// - Parameters:
    ///   - full: The cap of a full run.
    ///   - quick: The cap of a quick run.
    /// - Returns: The cap for this mode.
    public func maxDuration(_ full: Duration, quick: Duration = .seconds(1)) -> Duration {
        self == .full ? full : min(full, quick)
    }
}
