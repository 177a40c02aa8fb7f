import FlowKit
import Foundation
import Testing

extension OperationGraphSuite {
    @Suite struct OperationChainTests {
        @Test func seedThenChainRunsInOrder() async throws {
            let recorder = Recorder<Int>()
            let queue = OperationQueue()
            try await OperationChain(on: queue)
                .then(recording(1, into: recorder))
                .then(recording(2, into: recorder))
                .then(recording(3, into: recorder))
                .run()
            #expect(recorder.events == [1, 2, 3])
        }

        @Test func seedWhenStageRunsBetweenFirstAndLast() async throws {
            let recorder = Recorder<Int>()
            try await OperationChain(on: OperationQueue())
                .then(recording(1, into: recorder))
                .when([recording(2, into: recorder), recording(3, into: recorder)])
                .then(recording(4, into: recorder))
                .run()
            let events = recorder.events
            #expect(events.count == 4)
            #expect(events.first == 1)
            #expect(events.last == 4)
            #expect(Set(events[1...2]) == [2, 3])
        }

        @Test func addsDependenciesOnlyFromOneStageToTheNext() async throws {
            let recorder = Recorder<Int>()
            let (one, two, three, four, five) = (
                recording(1, into: recorder), recording(2, into: recorder), recording(3, into: recorder),
                recording(4, into: recorder), recording(5, into: recorder)
            )
            try await OperationChain(on: OperationQueue())
                .then(one).when([two, three]).then(four).then(five)
                .run()
            func ids(_ operation: Operation) -> Set<ObjectIdentifier> {
                Set(operation.dependencies.map(ObjectIdentifier.init))
            }
            #expect(ids(one).isEmpty)
            #expect(ids(two) == [ObjectIdentifier(one)])
            #expect(ids(three) == [ObjectIdentifier(one)])
            #expect(ids(four) == [ObjectIdentifier(two), ObjectIdentifier(three)])
            #expect(ids(five) == [ObjectIdentifier(four)])
        }

        @Test func passesEachStageValueToTheNext() async throws {
            let value = try await OperationChain(on: OperationQueue())
                .then("two") { 2 }
                .then("times 21") { $0 * 21 }
                .then("describe", promise: { Promise(value: "answer: \($0)") })
                .run()
            #expect(value == "answer: 42")
        }

        @Test func whenStageHandsOnValuesInMemberOrderWhateverOrderTheyFinishIn() async throws {
            let (slow, slowResolver) = Promise<Int>.pending()
            let chain = OperationChain(on: OperationQueue())
                .then { 10 }
                .when([
                    .promise("slow") { _ in slow },
                    .block("fast") { base in
                        slowResolver.fulfill(base + 1)  // the first member finishes after the second
                        return base + 2
                    },
                    .block("third") { $0 + 3 },
                ])
                .then("sum and order") { values in values }
            #expect(try await chain.run() == [11, 12, 13])
        }

        @Test func whenWithOneMemberHandsOnAOneElementArray() async throws {
            let values = try await OperationChain(on: OperationQueue()).then { 1 }.when([.block { $0 + 1 }]).run()
            #expect(values == [2])
        }

        @Test func emptyWhenStageHandsOnAnEmptyArrayAndKeepsTheOrder() async throws {
            let recorder = Recorder<Int>()
            let values = try await OperationChain(on: OperationQueue())
                .then { recorder.append(1) }
                .when([GraphStep<Void, Int>]())
                .then { values -> [Int] in
                    recorder.append(2)
                    return values
                }
                .run()
            #expect(values == [])
            #expect(recorder.events == [1, 2])
        }

        @Test func twoMultiMemberStagesAreJoinedWithLinearlyManyDependencies() async throws {
            let chain = OperationChain(on: OperationQueue())
                .when((0..<3).map { index in GraphStep<Void, Int>.block("a\(index)") { index } })
                .when((0..<4).map { index in GraphStep<[Int], Int>.block("b\(index)") { $0.reduce(index, +) } })
            #expect(try await chain.run() == [3, 4, 5, 6])
            let nodes = chain.graph.nodes
            #expect(nodes.count == 3 + 1 + 4)
            let edges = nodes.map { $0.operation.dependencies.count }.reduce(0, +)
            #expect(edges == 3 + 4)
        }

        @Test func recoverTurnsAFailureIntoAValueAndTheChainContinues() async throws {
            let ran = Recorder<String>()
            let value = try await OperationChain(on: OperationQueue())
                .then("fail") { () throws -> Int in throw TestError.boom }
                .then("skipped") { value -> Int in
                    ran.append("skipped")
                    return value
                }
                .recover { error in error as? TestError == .boom ? -1 : 0 }
                .then("after") { value -> Int in
                    ran.append("after")
                    return value * 2
                }
                .run()
            #expect(value == -2)
            #expect(ran.events == ["after"])
        }

        @Test func catchHandlesTheFirstErrorAndTheChainContinuesWithVoid() async throws {
            let caught = Recorder<TestError>()
            let recorder = Recorder<Int>()
            try await OperationChain(on: OperationQueue())
                .then { () throws in throw TestError.numbered(1) }
                .catch { error in if let error = error as? TestError { caught.append(error) } }
                .then(recording(2, into: recorder))
                .run()
            #expect(caught.events == [.numbered(1)])
            #expect(recorder.events == [2])
        }

        @Test func catchDoesNotRunWhenNothingFailed() async throws {
            let caught = Counter()
            try await OperationChain(on: OperationQueue()).then { 1 }.catch { _ in caught.increment() }.run()
            #expect(caught.current == 0)
        }

        @Test func anEmptyChainIsRejected() async {
            let error = await rejection(of: OperationChain(name: "nothing").start())
            #expect(error as? GraphError == .emptyGraph(graph: "nothing"))
        }
    }
}
