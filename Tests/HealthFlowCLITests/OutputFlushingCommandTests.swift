import Foundation
import ProductSupport
import Testing

/// What the command prints reaches a pipe line by line, as it happens, not when the command ends: a run stopped
/// from outside (a timeout, a supervisor) keeps its log, and its lines keep their order with standard error's.
@Suite struct OutputFlushingCommandTests {
    /// A sync that cannot reach its receiver prints each failed attempt, then fails with one error line: with both
    /// outputs in one pipe, the attempts come before the error, as they happened.
    @Test func linesReachAPipeInTheOrderTheyWerePrinted() throws {
        let finished = try ChildProcess.run(
            HealthFlowCommandTests.productsDirectory.appendingPathComponent("healthflow"),
            arguments: ["sync", "--in-memory", "--to", "http://127.0.0.1:9/upload"], errors: .standardOutput)
        let text = finished.outputText
        #expect(finished.termination == .exited(1), "\(text)")
        let attempt = try #require(text.range(of: "attempt 1 of 5 failed"), "\(text)")
        let error = try #require(text.range(of: "healthflow sync: error:"), "\(text)")
        #expect(attempt.lowerBound < error.lowerBound, "the error line came before the attempts it ends: \(text)")
    }
}
