import FlowKit
import Foundation
import Testing

extension OperationGraphSuite {
    @Suite struct GraphFailureTests {
        @Test func aFailureSkipsEveryDependentAndNoneOfThemRuns() async {
            let ran = Recorder<String>()
            let plain = BlockOperation { ran.append("plain operation") }
            let chain = OperationChain(on: OperationQueue(), name: "failing")
                .then("ok") { ran.append("ok") }
                .then("fail") { () throws in throw TestError.boom }
                .then("block") { ran.append("block") }
                .when([
                    .operation(plain, name: "plain"),
                    .async("async") { _ in ran.append("async") },
                    .promise("promise") { _ in
                        ran.append("promise")
                        return Promise(value: ())
                    },
                ])
                .then("last") { _ in ran.append("last") }
            #expect(await rejection(of: chain.start()) as? TestError == .boom)
            #expect(ran.events == ["ok"])
            let outcomes = chain.graph.trace.entries.map(\.outcome)
            #expect(outcomes == [.fulfilled, .failed("boom"), .skipped, .skipped, .skipped, .skipped, .skipped])
            #expect(plain.isCancelled && plain.isFinished)
            for node in chain.graph.nodes.dropFirst(2) {
                #expect(node.operation.isCancelled, "\(node.name) should be cancelled")
                #expect(node.operation.isFinished, "\(node.name) should have finished without running")
            }
        }

        @Test func aFailureCancelsSiblingsStillRunningInTheSameStage() async {
            let cancelled = Counter()
            let (slowStarted, started) = Promise<Void>.pending()
            let chain = OperationChain(on: OperationQueue())
                .when([
                    .promise("slow") { _ in
                        Promise<Int> { resolver in
                            resolver.onCancel { cancelled.increment() }
                            started.fulfill()
                        }
                    },
                    .promise("fail") { _ in slowStarted.map { () throws -> Int in throw TestError.boom } },
                ])
                .then("sum") { $0.reduce(0, +) }
            #expect(await rejection(of: chain.start()) as? TestError == .boom)
            #expect(cancelled.current == 1)
            #expect(chain.graph.trace.entries.map(\.outcome) == [.cancelled, .failed("boom"), .skipped])
        }

        @Test func aCatchAfterAStageReceivesTheFirstErrorOnceAfterTheSiblingsWereCancelled() async throws {
            let caught = Recorder<String>()
            let cancelled = Counter()
            let (firstStarted, first) = Promise<Void>.pending()
            let (thirdStarted, third) = Promise<Void>.pending()
            let value = try await OperationChain(on: OperationQueue())
                .when([
                    .promise("first") { _ in
                        Promise<Int> { resolver in
                            resolver.onCancel { cancelled.increment() }
                            first.fulfill()
                        }
                    },
                    .promise("second") { _ in
                        // Fails once both siblings are running.
                        when(fulfilled: [firstStarted, thirdStarted]).map { _ throws -> Int in
                            throw TestError.numbered(2)
                        }
                    },
                    .promise("third") { _ in
                        Promise<Int> { resolver in
                            resolver.onCancel { cancelled.increment() }
                            third.fulfill()
                        }
                    },
                ])
                .catch { caught.append("\($0)") }
                .then("after") { "continued" }
                .run()
            #expect(value == "continued")
            #expect(caught.events == ["numbered(2)"])
            #expect(cancelled.current == 2)
        }

        @Test func anUnhandledFailureInOneBranchStopsTheOtherBranches() async {
            let cancelled = Counter()
            let ran = Counter()
            let (otherStarted, started) = Promise<Void>.pending()
            let graph = OperationGraph(name: "branches")
            let waiting = graph.add(
                "waiting",
                promise: {
                    Promise<Void> { resolver in
                        resolver.onCancel { cancelled.increment() }
                        started.fulfill()
                    }
                })
            graph.add("after waiting") { ran.increment() }.depends(on: waiting)
            graph.add("fails", promise: { otherStarted.map { () throws in throw TestError.boom } })
            #expect(await rejection(of: graph.start()) as? TestError == .boom)
            #expect(cancelled.current == 1)
            #expect(ran.current == 0)
            #expect(graph.trace.entries.map(\.outcome) == [.cancelled, .skipped, .failed("boom")])
        }

        @Test func aNodeFailingAfterTheGraphWasCancelledKeepsTheCancellation() async {
            let (blockStarted, started) = Promise<Void>.pending()
            let proceed = DispatchSemaphore(value: 0)
            let graph = OperationGraph(name: "stubborn")
            let stubborn = graph.add("stubborn") { () throws in
                started.fulfill()
                proceed.wait()  // ignores cancellation, then fails
                throw TestError.boom
            }
            graph.add("after") {}.depends(on: stubborn)
            let result = graph.start()
            _ = await blockStarted.settled
            graph.cancel()
            proceed.signal()
            #expect(await rejection(of: result) is CancellationError)
            #expect(graph.trace.entries.map(\.outcome) == [.failed("boom"), .skipped])
        }

        @Test func aRecoverThatRethrowsKeepsTheChainFailed() async {
            let chain = OperationChain(on: OperationQueue())
                .then { () throws -> Int in throw TestError.numbered(1) }
                .recover { _ in throw TestError.numbered(2) }
                .then { $0 + 1 }
            #expect(await rejection(of: chain.start()) as? TestError == .numbered(2))
        }

        @Test func aRecoveryNodeInAGraphTurnsAFailureIntoAValue() async throws {
            let graph = OperationGraph()
            let profile = graph.add("profile", promise: { Promise<String>(error: TestError.boom) })
            let shown = graph.recover("cached", from: profile) { _ in "cached profile" }
            let greeting = graph.add("greeting", after: shown) { "Hello, \($0)" }
            try await graph.run()
            #expect(try greeting.value() == "Hello, cached profile")
            #expect(graph.trace.entries.map(\.outcome) == [.failed("boom"), .fulfilled, .fulfilled])
        }

        @Test func aPlainOperationCancelledByItsOwnerFailsTheGraphWithCancellation() async {
            let (gate, open) = Promise<Void>.pending()
            let operation = BlockOperation {}
            let graph = OperationGraph()
            let wait = graph.add("wait", promise: { gate })
            graph.add(operation, name: "plain").depends(on: wait)
            let result = graph.start()
            operation.cancel()
            open.fulfill()
            #expect(await rejection(of: result) is CancellationError)
            #expect(graph.trace.entries.map(\.outcome) == [.fulfilled, .cancelled])
        }
    }
}
