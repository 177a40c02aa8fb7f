import FlowKit
import Foundation
import HealthFlow
import Testing

/// Records the numbers of the operations it made, in the order they ran.
final class Recorder: Sendable {
    private let numbers = Recording<Int>()

    var recorded: [Int] { numbers.recorded }

    func operations() -> (BlockOperation, BlockOperation, BlockOperation, BlockOperation) {
        func operation(_ number: Int) -> BlockOperation { BlockOperation { self.numbers.record(number) } }
        return (operation(1), operation(2), operation(3), operation(4))
    }
}

/// A store with the promise and async calls the graph examples make.
struct SummaryStore: Sendable {
    func requestAuthorization() -> Promise<Void> { Promise(value: ()) }
    func sum(_ type: HealthObjectType, _ day: Date) async throws -> Int { type == .stepCount ? 8_000 : 450 }
    func steps(_ day: Date) async throws -> Int { 8_000 }
    func sleep(_ night: Date) async throws -> Double { 7.5 }
}

/// A server the graph examples fetch from and send to.
final class GraphAPI: Sendable {
    struct Unreachable: Error {}

    let reachable: Bool
    let received = Recording<String>()

    init(reachable: Bool = true) { self.reachable = reachable }

    func profile() -> Promise<Data> {
        reachable ? Promise(value: Data(#"{"name": "Ada"}"#.utf8)) : Promise(error: Unreachable())
    }

    func send(_ steps: Int, _ sleep: Double) async throws { received.record("\(steps) steps, \(sleep) h") }
}

enum ImportError: Error {
    case badFormat
}

extension DocExamples {
    /// The examples of `FlowKit.docc/OperationGraphs.md`.
    @Suite struct OperationGraphs {
        let queue = OperationQueue()
        let store = SummaryStore()
        let today = Date()
        let lastNight = Date().addingTimeInterval(-12 * 3600)

        @Test func aChainRunsStagesInOrderAndWhenMembersConcurrently() async throws {
            let summary = try await OperationChain(on: queue, name: "daily summary")
                .then("authorize", promise: { store.requestAuthorization() })
                .when([
                    .async("steps") { try await store.sum(.stepCount, today) },
                    .async("energy") { try await store.sum(.activeEnergyBurned, today) },
                ])
                .then("format") { totals in "\(totals[0]) steps, \(totals[1]) kcal" }
                .recover { _ in "no data today" }
                .run()
            #expect(summary == "8000 steps, 450 kcal")
        }

        @Test func plainOperationsRunStageAfterStage() async throws {
            let recorder = Recorder()
            let (op1, op2, op3, op4) = recorder.operations()  // four BlockOperations; each records its number
            try await OperationChain(on: queue)
                .then(op1)  // records 1
                .when([op2, op3])  // records 2 and 3, in either order
                .then(op4)  // records 4
                .run()  // recorder: [1, 2, 3, 4] or [1, 3, 2, 4]
            #expect([[1, 2, 3, 4], [1, 3, 2, 4]].contains(recorder.recorded))
        }

        @Test func aWhenStageHandsOnItsValuesInMemberOrder() async throws {
            let values = try await OperationChain()
                .then { 10 }
                .when([.block { $0 + 1 }, .block { $0 + 2 }])  // [11, 12]
                .then { $0.reduce(0, +) }  // 23
                .run()
            #expect(values == 23)
        }

        @Test func aGraphNodeReadsTheValuesOfTheNodesItDependsOn() async throws {
            let api = GraphAPI()
            let graph = OperationGraph(name: "morning sync")
            let auth = graph.add("authorize", promise: { store.requestAuthorization() })
            let steps = graph.add("steps") { try await store.steps(today) }.depends(on: auth)
            let sleep = graph.add("sleep") { try await store.sleep(lastNight) }.depends(on: auth)
            graph.add("upload") { try await api.send(steps.value(), sleep.value()) }.depends(on: steps, sleep)
            try await graph.run()
            #expect(api.received.recorded == ["8000 steps, 7.5 h"])
        }

        @Test func recoverRunsOnlyAfterAFailureAndTheChainGoesOn() async throws {
            for (api, expected) in [(GraphAPI(), Profile(name: "Ada")), (GraphAPI(reachable: false), .placeholder)] {
                let shown = Recording<Profile>()
                let show: @Sendable (Profile) -> Void = { shown.record($0) }
                let decode: @Sendable (Data) throws -> Profile = { try JSONDecoder().decode(Profile.self, from: $0) }
                try await OperationChain()
                    .then("fetch", promise: { api.profile() })
                    .then("decode") { try decode($0) }  // skipped if fetch fails
                    .recover { _ in Profile.placeholder }  // runs only if something failed
                    .then("show") { show($0) }  // runs either way
                    .run()
                #expect(shown.recorded == [expected])
            }
        }

        @Test func maxConcurrentNodesLimitsOneChainOnASharedQueue() async throws {
            let sharedQueue = queue
            let uploader = BatchUploader()
            let batches = (1...4).map { Batch(id: $0, count: $0) }
            let uploads = OperationChain(on: sharedQueue, name: "uploads", maxConcurrentNodes: 2)
                .when(batches.map { batch in .promise("upload \(batch.id)") { _ in uploader.send(batch) } })
            #expect(try await uploads.run() == [1, 2, 3, 4])
        }

        @Test func aChainDescribesItselfAsMermaid() async {
            Printed.reset()
            let chain = OperationChain(name: "diagram")
                .then("one") { 1 }
                .when([.block("two") { $0 + 1 }, .block("three") { $0 + 2 }])
                .then("four") { $0.reduce(0, +) }
            print(chain.graph.mermaid)
            // flowchart LR
            //     n0["one"]
            //     subgraph s2["stage 2: when"]
            //         n1["two"]
            //         n2["three"]
            //     end
            //     n3["four"]
            //     n0 --> n1
            //     n0 --> n2
            //     n1 --> n3
            //     n2 --> n3
            #expect(await Printed.lines(count: 1) == [Self.printedComment(in: "OperationGraphs.md", after: "mermaid")])
        }

        @Test func aTraceWithAnInjectedClockIsTheSameOnEveryRun() async {
            Printed.reset()
            let serialQueue = OperationQueue()
            serialQueue.maxConcurrentOperationCount = 1
            let ticks = LockedState(-1)
            let testClock = GraphClock {
                .milliseconds(
                    ticks.withLock {
                        $0 += 1; return $0
                    })
            }
            let chain = OperationChain(on: serialQueue, name: "import", recordsTrace: true, clock: testClock)
                .then("fetch") { 1 }
                .then("parse") { _ throws -> Int in throw ImportError.badFormat }
                .then("save") { _ in }
            _ = await chain.start().settled
            print(chain.graph.trace)
            // Trace of "import": 3 nodes — 1 fulfilled, 1 failed, 1 skipped
            //    start       end  timeline                    outcome    node
            // 1.000 ms  2.000 ms  [      ######            ]  fulfilled  fetch
            // 3.000 ms  4.000 ms  [                  ######]  failed     parse: badFormat
            //        -         -  [                        ]  skipped    save
            #expect(await Printed.lines(count: 1) == [Self.printedComment(in: "OperationGraphs.md", after: "trace")])
        }

        /// The `// ` comment lines that follow `print(….<property>)` in an article's example: what it says is printed.
        static func printedComment(in article: String, after property: String) -> String {
            let path = FencedExamples.packageRoot.appendingPathComponent("Sources/FlowKit/FlowKit.docc/\(article)")
            let lines = ((try? String(contentsOf: path, encoding: .utf8)) ?? "").components(separatedBy: "\n")
            guard let start = lines.firstIndex(where: { $0.hasPrefix("print(") && $0.hasSuffix(".\(property))") })
            else { return "no print(….\(property)) in \(article)" }
            return lines[(start + 1)...].prefix { $0.hasPrefix("//") }.map { String($0.dropFirst(3)) }
                .joined(separator: "\n")
        }
    }
}
