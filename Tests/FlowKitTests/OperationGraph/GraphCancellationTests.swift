import FlowKit
import Foundation
import Testing

extension OperationGraphSuite {
    /// The suite's hang guard (``OperationGraphSuite``): the racing test runs 200 rounds, each a few hops through the
    /// cooperative pool, and on a loaded two-core machine it waits behind CPU-heavy tests (a clean-clone run that
    /// shared the machine with a sanitizer build hit a one-minute limit). The limit guards against a hang, not a
    /// slow machine.
    @Suite(.timeLimit(.minutes(10))) struct GraphCancellationTests {
        /// A chain whose first step is a promise that reports when it started and counts its cancellations, followed
        /// by steps that record whether they ran.
        private func cancellableChain(
            started: Resolver<Void>, cancelled: Counter, ran: Recorder<String>
        ) -> OperationChain<Void> {
            OperationChain(on: OperationQueue(), name: "cancellable")
                .then(
                    "running",
                    promise: {
                        Promise<Int> { resolver in
                            resolver.onCancel { cancelled.increment() }
                            started.fulfill()
                        }
                    }
                )
                .then("next") { _ in ran.append("next") }
                .when([BlockOperation { ran.append("operation") }])
        }

        @Test func cancellingTheGraphCancelsRunningNodesSkipsPendingOnesAndSettlesWithCancellation() async {
            let (running, started) = Promise<Void>.pending()
            let cancelled = Counter()
            let ran = Recorder<String>()
            let chain = cancellableChain(started: started, cancelled: cancelled, ran: ran)
            let result = chain.start()
            _ = await running.settled
            chain.cancel()
            #expect(await rejection(of: result) is CancellationError)
            #expect(cancelled.current == 1)
            #expect(ran.events.isEmpty)
            #expect(chain.graph.trace.entries.map(\.outcome) == [.cancelled, .skipped, .skipped])
        }

        @Test func cancellingTheReturnedPromiseCancelsTheGraph() async {
            let (running, started) = Promise<Void>.pending()
            let cancelled = Counter()
            let ran = Recorder<String>()
            let chain = cancellableChain(started: started, cancelled: cancelled, ran: ran)
            let result = chain.start()
            _ = await running.settled
            result.cancel()
            #expect(await rejection(of: result) is CancellationError)
            #expect(cancelled.current == 1)
            #expect(ran.events.isEmpty)
        }

        @Test func cancellingTheTaskAwaitingRunCancelsTheGraph() async {
            let (running, started) = Promise<Void>.pending()
            let cancelled = Counter()
            let ran = Recorder<String>()
            let chain = cancellableChain(started: started, cancelled: cancelled, ran: ran)
            let task = Task { try await chain.run() }
            _ = await running.settled
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(cancelled.current == 1)
            #expect(ran.events.isEmpty)
            #expect(chain.graph.trace.entries.map(\.outcome) == [.cancelled, .skipped, .skipped])
        }

        @Test func anAsyncNodeSeesTheCancellationAsTaskCancellation() async {
            let (running, started) = Promise<Void>.pending()
            let (forever, keep) = Promise<Void>.pending()
            let (sawCancellation, saw) = Promise<Void>.pending()
            let graph = OperationGraph()
            graph.add("waits") {
                started.fulfill()
                do {
                    try await forever.value
                } catch {
                    if Task.isCancelled { saw.fulfill() }
                    throw error
                }
            }
            let task = Task { try await graph.run() }
            _ = await running.settled
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            _ = keep
            #expect(graph.trace.entries.map(\.outcome) == [.cancelled])
            // The node's task was cancelled too; it observes that on its own schedule.
            try? await sawCancellation.value
        }

        @Test func cancellingBeforeStartOrAfterTheGraphSettledChangesNothing() async throws {
            let graph = OperationGraph()
            let node = graph.add("one") { 1 }
            graph.cancel()
            try await graph.run()
            graph.cancel()
            #expect(try node.value() == 1)
            #expect(graph.trace.entries.map(\.outcome) == [.fulfilled])
        }

        @Test func cancellationRacingCompletionSettlesOnceWithEitherOutcome() async {
            var fulfilled = 0
            var cancelled = 0
            for round in 0..<200 {
                let graph = OperationGraph(name: "race \(round)")
                let first = graph.add("first") { round }
                graph.add("second", after: first) { $0 + 1 }
                let result = graph.start()
                let canceller = Task.detached { graph.cancel() }
                switch await result.settled {
                case .success: fulfilled += 1
                case .failure(let error):
                    #expect(error is CancellationError)
                    cancelled += 1
                }
                await canceller.value
                let outcomes = graph.trace.entries.map(\.outcome)
                #expect(!outcomes.contains(.pending) && !outcomes.contains(.running))
            }
            #expect(fulfilled + cancelled == 200)
        }
    }
}
