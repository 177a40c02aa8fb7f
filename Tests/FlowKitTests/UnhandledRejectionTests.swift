import FlowKit
import Testing

/// Every unhandled-rejection report of the test process, with the reporter that was installed before kept in
/// the loop; tests find their own report by the line of their `finally`.
private enum Reports {
    static let recorder: Recorder<UnhandledRejection> = {
        let recorder = Recorder<UnhandledRejection>()
        let previous = FlowDefaults.unhandledRejection
        FlowDefaults.unhandledRejection = { report in
            recorder.append(report)
            previous(report)
        }
        return recorder
    }()

    static func at(line: UInt) -> [UnhandledRejection] {
        recorder.events.filter { $0.file == "FlowKitTests/UnhandledRejectionTests.swift" && $0.line == line }
    }
}

/// An error whose description carries a caller's value, which a report must never repeat.
private struct GlucoseOutOfRange: Error, CustomStringConvertible {
    var description: String { "glucose 5.4 mmol/L out of range" }
}

@Suite struct UnhandledRejectionTests {
    @Test func aRejectionReachingFinallyIsReportedWithItsTypeAndPlace() {
        _ = Reports.recorder
        let line: UInt = #line + 1
        Promise<Int>(error: GlucoseOutOfRange()).finally(on: .immediate) {}
        let reports = Reports.at(line: line)
        #expect(reports.count == 1, "one report for one dropped error")
        #expect(reports.first?.errorType.hasSuffix("GlucoseOutOfRange") == true)
        let text = reports.first?.description ?? ""
        #expect(text.contains("FlowKitTests/UnhandledRejectionTests.swift:\(line)"))
        #expect(text.contains("catch"), "the report says how to fix it")
        #expect(!text.contains("5.4"), "a report never repeats the error's description (it may hold health data)")
    }

    @Test func theReportComesBeforeTheCleanUpRuns() {
        _ = Reports.recorder
        let seenAtCleanUp = Recorder<Int>()
        let line: UInt = #line + 1
        Promise<Int>(error: TestError.boom).finally(on: .immediate) {
            seenAtCleanUp.append(Reports.at(line: line).count)
        }
        #expect(seenAtCleanUp.events == [1], "a clean-up that ends the process must not lose the report")
    }

    @Test func aCaughtChainEndingInFinallyReportsNothing() {
        _ = Reports.recorder
        let line: UInt = #line + 1
        Promise<Int>(error: TestError.boom).catch(on: .immediate) { _ in }.finally(on: .immediate) {}
        #expect(Reports.at(line: line).isEmpty)
    }

    @Test func aFulfilledChainEndingInFinallyReportsNothing() {
        _ = Reports.recorder
        let line: UInt = #line + 1
        Promise(value: 1).finally(on: .immediate) {}
        #expect(Reports.at(line: line).isEmpty)
    }

    @Test func aCancelledChainEndingInFinallyStopsQuietly() {
        _ = Reports.recorder
        let (promise, _) = Promise<Int>.pending()
        let line: UInt = #line + 1
        promise.map(on: .immediate) { $0 + 1 }.finally(on: .immediate) {}
        promise.cancel()
        #expect(Reports.at(line: line).isEmpty)
    }

    @Test func aRejectionThatPassesThroughStepsIsReportedAtTheFinally() async {
        _ = Reports.recorder
        let (ended, resolver) = Promise<Void>.pending()
        let line: UInt = #line + 1
        Promise<Int>(error: TestError.boom).map { $0 + 1 }.done { _ in }.finally { resolver.fulfill() }
        _ = await ended.settled
        #expect(Reports.at(line: line).count == 1)
    }
}
