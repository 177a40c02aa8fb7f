import FlowKit
import Foundation

/// Runs the demo's steps one after another, printing each as `[style] description`, then `→ result (duration)`,
/// and keeps the tally for the closing summary.
final class DemoTrace: Sendable {
    let output: any DemoOutput
    private let tally = LockedState((steps: 0, failed: 0, elapsed: Duration.zero))

    init(output: any DemoOutput) {
        self.output = output
    }

    /// Runs one step; returns whether it behaved as expected (succeeded, or failed when `expectFailure`).
    @discardableResult
    func step(
        _ style: String, _ description: String, expectFailure: Bool = false,
        _ body: @Sendable () async throws -> String
    ) async -> Bool {
        let clock = ContinuousClock()
        let start = clock.now
        let outcome: Result<String, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        let elapsed = clock.now - start
        let label = "[\(style)]".padding(toLength: 10, withPad: " ", startingAt: 0)
        let asExpected: Bool
        switch outcome {
        case .success(let text):
            output.line("\(label) \(description)\n           → \(text) (\(Self.format(elapsed)))")
            asExpected = !expectFailure
        case .failure(let error):
            let verdict = expectFailure ? "expected error" : "ERROR"
            output.line("\(label) \(description)\n           → \(verdict): \(error) (\(Self.format(elapsed)))")
            asExpected = expectFailure
        }
        tally.withLock { tally in
            tally.steps += 1
            tally.failed += asExpected ? 0 : 1
            tally.elapsed += elapsed
        }
        return asExpected
    }

    /// `N steps, M did not behave as expected, X in all`.
    var summary: (steps: Int, failed: Int, elapsed: Duration) {
        tally.withLock { $0 }
    }

    /// A duration as `12.3 ms` or `1.24 s`.
    static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }
}
