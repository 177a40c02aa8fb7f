import FlowKit
import Foundation
import Testing

extension OperationGraphSuite {
    @Suite struct GraphTraceTests {
        private func failingImport() -> OperationChain<Void> {
            OperationChain(on: serialQueue(), name: "import", recordsTrace: true, clock: tickingClock())
                .then("fetch") { 1 }
                .then("parse") { _ throws -> Int in throw TestError.boom }
                .then("save") { _ in }
        }

        @Test func recordsEachNodesStartEndAndOutcome() async {
            let chain = failingImport()
            _ = await chain.start().settled
            #expect(
                chain.graph.trace.entries == [
                    .init(index: 0, node: "fetch", start: .milliseconds(1), end: .milliseconds(2), outcome: .fulfilled),
                    .init(
                        index: 1, node: "parse", start: .milliseconds(3), end: .milliseconds(4),
                        outcome: .failed("boom")),
                    .init(index: 2, node: "save", start: nil, end: nil, outcome: .skipped),
                ])
            #expect(chain.graph.trace.entries[0].duration == .milliseconds(1))
        }

        @Test func printsAReadableTimeline() async {
            let chain = failingImport()
            _ = await chain.start().settled
            let expected = """
                Trace of "import": 3 nodes — 1 fulfilled, 1 failed, 1 skipped
                   start       end  timeline                    outcome    node
                1.000 ms  2.000 ms  [      ######            ]  fulfilled  fetch
                3.000 ms  4.000 ms  [                  ######]  failed     parse: boom
                       -         -  [                        ]  skipped    save
                """
            #expect(chain.graph.trace.timeline == expected)
            #expect(chain.graph.trace.description == expected)
        }

        @Test func withoutRecordingTheTraceStillHasOutcomesButNoTimes() async {
            let chain = OperationChain(on: OperationQueue(), name: "quiet")
                .then("one") { 1 }
                .then("two") { _ throws -> Int in throw TestError.boom }
            _ = await chain.start().settled
            let entries = chain.graph.trace.entries
            #expect(entries.map(\.outcome) == [.fulfilled, .failed("boom")])
            #expect(entries.allSatisfy { $0.start == nil && $0.end == nil })
        }

        @Test func beforeStartingEveryNodeIsPending() {
            let graph = OperationGraph(name: "idle")
            graph.add("a") { 1 }
            #expect(graph.trace.entries.map(\.outcome) == [.pending])
            #expect(graph.trace.timeline.hasPrefix("Trace of \"idle\": 1 node — 1 pending"))
        }

        @Test func timesComeFromTheInjectedClockOfAScheduler() async throws {
            let scheduler = FixedScheduler(now: .seconds(5))
            let graph = OperationGraph(name: "fixed", recordsTrace: true, clock: .scheduler(scheduler))
            graph.add("instant") { 1 }
            try await graph.run()
            #expect(graph.trace.entries[0].start == .zero)
            #expect(graph.trace.entries[0].duration == .zero)
        }
    }

    /// A scheduler whose clock never moves.
    private struct FixedScheduler: FlowScheduler {
        let now: Duration
        func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
            ScheduledWork {}
        }
    }
}
