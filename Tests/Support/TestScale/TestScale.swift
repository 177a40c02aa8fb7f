import Foundation

/// How much of a long test runs: the stress tests' millions of operations and the randomized tests' rounds against
/// a reference, scaled by `HEALTHFLOW_STRESS_SCALE` (a fraction in (0, 1], 1 when unset). CI's sanitizer runs set
/// it to 0.02: a sanitizer slows every memory access and lock several times over and looks for races and memory
/// errors, which the first rounds already exercise; every round runs, unsanitized, in the plain `swift test`.
public enum TestScale {
    /// The fraction of every scaled count that runs.
    public static let fraction: Double = {
        let text = ProcessInfo.processInfo.environment["HEALTHFLOW_STRESS_SCALE"] ?? "1"
        guard let scale = Double(text), scale > 0, scale <= 1 else {
            fatalError("HEALTHFLOW_STRESS_SCALE must be a fraction in (0, 1]; got \(text)")
        }
        return scale
    }()

    /// `full` times ``fraction``, rounded, and never fewer than `minimum` (nor more than `full`).
    public static func count(_ full: Int, atLeast minimum: Int = 1) -> Int {
        min(full, max(minimum, Int((Double(full) * fraction).rounded())))
    }
}
