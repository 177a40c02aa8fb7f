import FlowKit
import Foundation

/// Runs the demo's steps one after another, printing `[style] description` when a step starts and
/// `→ result (duration)` when it ends, and keeps the tally for the closing summary.
///
/// Steps of the style `setup` (opening the store, generating and ingesting the year) are tallied apart from the
/// workflows, so the summary can say where the time went.
final class DemoTrace: Sendable {
    let output: any DemoOutput
    private let tally = LockedState(Summary())

    /// What ran: how many steps, how many did not behave as expected, and the time of the setup and of the rest.
    struct Summary: Sendable {
        var steps = 0
        var failed = 0
        var setup = Duration.zero
        var workflows = Duration.zero

        var elapsed: Duration { setup + workflows }

        /// `Summary: 11 steps, all as expected, 12.87 s in all (setup 12.10 s, workflows 770.0 ms).`
        var line: String {
            "Summary: \(steps) steps, \(failed == 0 ? "all as expected" : "\(failed) FAILED"), "
                + "\(DemoTrace.format(elapsed)) in all (setup \(DemoTrace.format(setup)), "
                + "workflows \(DemoTrace.format(workflows)))."
        }
    }

    /// The line that says how to read a step.
    static let legend = "Each step: [the style it is written in] what it does, then → what it found (how long it took)."

    init(output: any DemoOutput) {
        self.output = output
    }

    /// Runs one step; returns whether it behaved as expected (succeeded, or failed when `expectFailure`).
    @discardableResult
    func step(
        _ style: String, _ description: String, expectFailure: Bool = false,
        _ body: @Sendable () async throws -> String
    ) async -> Bool {
        let label = "[\(style)]".padding(toLength: 10, withPad: " ", startingAt: 0)
        output.line("\(label) \(description)")
        let clock = ContinuousClock()
        let start = clock.now
        let outcome: Result<String, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        return finish(style, outcome, after: clock.now - start, expectFailure: expectFailure)
    }

    /// Prints and tallies a step whose work ran before the trace could time it (`elapsed` was measured by the
    /// caller), so the summary still counts it.
    func record(_ style: String, _ description: String, elapsed: Duration, _ text: String) {
        output.line("[\(style)]".padding(toLength: 10, withPad: " ", startingAt: 0) + " \(description)")
        finish(style, .success(text), after: elapsed, expectFailure: false)
    }

    @discardableResult
    private func finish(
        _ style: String, _ outcome: Result<String, any Error>, after elapsed: Duration, expectFailure: Bool
    ) -> Bool {
        let asExpected: Bool
        switch outcome {
        case .success(let text):
            output.line("           → \(text) (\(Self.format(elapsed)))")
            asExpected = !expectFailure
        case .failure(let error):
            let verdict = expectFailure ? "expected error" : "ERROR"
            output.line("           → \(verdict): \(error) (\(Self.format(elapsed)))")
            asExpected = expectFailure
        }
        tally.withLock { tally in
            tally.steps += 1
            tally.failed += asExpected ? 0 : 1
            if style == "setup" { tally.setup += elapsed } else { tally.workflows += elapsed }
        }
        return asExpected
    }

    /// The tally so far.
    var summary: Summary {
        tally.withLock { $0 }
    }

    /// A duration as `12.3 ms` or `1.24 s`.
    static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }
}
