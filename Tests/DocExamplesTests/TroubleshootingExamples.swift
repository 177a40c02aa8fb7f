import FlowKit
import Foundation
import Testing

/// The tallest of `heights`; throws for none, so a chain can fail after its `recover`.
func tallest(of heights: [Double]) throws -> Double {
    guard let tallest = heights.max() else { throw PromiseError.missingValue }
    return tallest
}

extension DocExamples {
    /// The examples of `FlowKit.docc/Troubleshooting.md`.
    @Suite struct Troubleshooting {
        let source = HeightSource { Promise(value: [1.70, 1.72]) }
        let queue = OperationQueue()

        @Test func aStatedTypeOrAFunctionPicksTheAsyncTwinAndPromiseKeepsAPromise() async throws {
            try await after(.milliseconds(1)) as Void  // top-level code: the stated type picks the async twin
            func waitABit() async throws {
                try await after(.milliseconds(1))  // in a function: the async twin, which waits
            }
            try await waitABit()
            let later = Promise { try await after(.milliseconds(1)) }
            try await later.value
        }

        @Test func stateAHandlerChangesSitsBehindALock() async throws {
            let count = LockedState(0)
            let counted = source.heights().done { heights in count.withLock { $0 = heights.count } }
            try await counted.value
            #expect(count.withLock { $0 } == 2)
        }

        @Test func aChainRunsOnlyOnceItIsStarted() async throws {
            Printed.reset()
            let chain = OperationChain(on: queue, name: "import").then("read") { print("reading") }
            _ = chain.start()  // without start() (or run()), nothing is enqueued
            #expect(await Printed.lines(count: 1) == ["reading"])
        }

        @Test func aCommandLineProgramUsesAQueueThatRuns() async {
            Printed.reset()
            let results = DispatchQueue(label: "results")
            source.heights().done(on: .queue(results)) { print($0) }.catch(on: .queue(results)) { print($0) }
            #expect(await Printed.lines(count: 1) == ["[1.7, 1.72]"])
        }

        @Test func aCatchBeforeAFailingStepDoesNotSeeItsError() async {
            Printed.reset()
            let none = HeightSource { Promise(error: CocoaError(.fileNoSuchFile)) }
            none.heights().recover { _ in Promise(value: []) }  // mid-chain: recover hands a value on
                .map { try tallest(of: $0) }.catch { print("no tallest height: \($0)") }  // catch last
            #expect(await Printed.lines(count: 1) == ["no tallest height: \(PromiseError.missingValue)"])
        }

        @Test func aCatchBeforeFinallyHandlesTheErrorFinallyWouldReport() async {
            Printed.reset()
            let none = HeightSource { Promise(error: CocoaError(.fileNoSuchFile)) }
            none.heights().done { print($0) }.catch { print("no heights: \($0)") }.finally { print("stopped reading") }
            let lines = await Printed.lines(count: 2)
            #expect(lines.first?.hasPrefix("no heights:") == true && lines.last == "stopped reading")
        }

        @Test func aNodeWhoseDependencyFailedIsSkipped() async throws {
            Printed.reset()
            let graph = OperationGraph(name: "import", recordsTrace: true)
            let read = graph.add("read") { () async throws -> Int in throw ImportError.badFormat }
            graph.add("save") { print("never printed: read failed, so save is skipped") }.depends(on: read)
            await #expect(throws: ImportError.self) { try await graph.run() }
            print(graph.trace)  // "failed   read: badFormat", then "skipped  save"
            let trace = await Printed.lines(count: 1).joined()
            #expect(trace.contains("failed   read: badFormat") && trace.contains("skipped  save"))
        }
    }
}
