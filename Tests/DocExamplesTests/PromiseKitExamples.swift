import FlowKit
import FlowKitTesting
import Foundation
import Testing

extension DocExamples {
    /// The examples of `FlowKit.docc/ComingFromPromiseKit.md`: each behavioural difference in two lines.
    @Suite struct ComingFromPromiseKit {
        let source = HeightSource { Promise(value: [1.70, 1.72]) }

        @Test func aCallbackIsWrappedWithTheResolversResolve() async throws {
            Printed.reset()
            let scale = Scale(reading: 172)
            let reading = Promise<Double> { resolver in scale.measure(completion: resolver.resolve) }
            reading.done { print("measured \($0) cm") }.catch { print("no reading: \($0)") }
            #expect(await Printed.lines(count: 1) == ["measured 172.0 cm"])
        }

        @Test func handlersRunOnFlowKitsQueueUnlessTheChainNamesAnother() async {
            Printed.reset()
            let heightsLabel = Label()
            source.heights().done(on: .main) { heightsLabel.text = "\($0.count) heights" }
                .catch(on: .main) { heightsLabel.text = "\($0)" }
            #expect(await Printed.lines(count: 1) == ["label: 2 heights"])
        }

        /// Compiled, not run: it changes a process-wide default.
        func anAppWhoseMainQueueRunsMayMakeItTheDefault() {
            FlowDefaults.executor = .main  // an app, or a tool that calls dispatchMain()
            source.heights().done { print("on the main queue: \($0)") }.catch { print($0) }
        }

        @Test func cancellingRejectsWithCancellationErrorWhichCatchSkips() async {
            Printed.reset()
            let (fetch, _) = Promise<[Double]>.pending()
            fetch.cancel()  // rejects with CancellationError, and stops the work if it registered onCancel
            fetch.catch { print("not printed: \($0)") }.finally { print("cancelled quietly") }
            #expect(await Printed.lines(count: 1) == ["cancelled quietly"])
        }

        @Test func stateSharedWithAHandlerSitsBehindALock() async throws {
            let total = LockedState(0)
            try await source.heights().done { heights in total.withLock { $0 += heights.count } }.value
            #expect(total.withLock { $0 } == 2)
        }

        @Test func errorsAreAnyErrorAndAreMatchedByPattern() async {
            Printed.reset()
            let scheduler = ManualScheduler()
            let (slow, _) = Promise<[Double]>.pending()
            slow.timeout(.seconds(5), on: scheduler)
                .catch { error in if case PromiseError.timedOut = error { print("too slow") } }
            scheduler.advance(by: .seconds(5))
            #expect(await Printed.lines(count: 1) == ["too slow"])
        }

        @Test func aChainEndingInDoneStillNeedsItsCatch() async {
            Printed.reset()
            source.heights().done { print($0) }.catch { print("failed: \($0)") }
            #expect(await Printed.lines(count: 1) == ["[1.7, 1.72]"])
        }

        @Test func getLooksAtTheValueAndPassesItOn() async throws {
            Printed.reset()
            let tallest = source.heights().map { $0.max() ?? 0 }
            let shown = tallest.get { print("tallest: \($0) m") }
            #expect(try await shown.value == 1.72)
            #expect(await Printed.lines(count: 1) == ["tallest: 1.72 m"])
        }

        @Test func asyncCodeAwaitsThePromisesValue() async throws {
            let heights = try await source.heights().value
            let (first, second) = try await when(fulfilled: source.heights(), source.heights())
            #expect(heights == first && first == second)
        }
    }
}
