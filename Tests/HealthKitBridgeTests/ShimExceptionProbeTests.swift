import Foundation
import ProductSupport
import Testing

/// The shim stops the process where HealthKit raises: each crash case, run in a child process directly
/// against the shim, ends the child with a trap and HealthKit's message; the valid call runs to the end.
@Suite struct ShimExceptionProbeTests {
    static var productsDirectory: URL { BuiltProducts.directory }

    /// Runs the probe for one case and returns how it ended and what it wrote to standard error.
    static func probe(_ name: String) throws -> (trapped: Bool, output: String) {
        // Without the runtime's crash backtracer: it forks from the signal handler, which ThreadSanitizer's runtime
        // stops with a CHECK failure (an exit, not the trap); the test checks the trap and the message, not a trace.
        let finished = try ChildProcess.run(
            productsDirectory.appendingPathComponent("HealthKitShimProbe"), arguments: [name],
            environment: ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 },
            errors: .standardOutput)
        return (finished.termination.isSignal, finished.outputText)
    }

    @Test(arguments: [
        ("wrong-unit", "HKQuantityTypeIdentifierHeight requires unit of type"),
        ("insulin-without-reason", "HKInsulinDeliveryReason is required"),
        ("share-exercise-time", "Authorization to share the following types is disallowed"),
        ("authorize-blood-pressure", "HKCorrelationTypeIdentifierBloodPressure"),
        ("illegal-statistics-option", "is not compatible with discrete data type"),
        ("execute-twice", "already active or has been stopped"),
    ])
    func shimStopsTheProcessWithHealthKitsMessage(name: String, message: String) throws {
        let outcome = try Self.probe(name)
        #expect(outcome.trapped)
        #expect(outcome.output.contains(message))
        #expect(!outcome.output.contains("no exception"))
    }

    @Test func validCallRunsToTheEnd() throws {
        let outcome = try Self.probe("valid")
        #expect(!outcome.trapped)
        #expect(outcome.output.contains("saved\nno exception"))
    }
}
