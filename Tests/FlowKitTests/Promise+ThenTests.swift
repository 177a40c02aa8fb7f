import FlowKit
import Foundation
import Testing

@Suite struct PromiseThenTests {
    @Test func thenFollowsThePromiseTheBodyReturns() async throws {
        let result = Promise(value: 2).then { value in Promise(value: value * 10) }
        #expect(try await result.value == 20)
    }

    @Test func thenSkipsTheBodyWhenUpstreamRejects() async {
        let ran = Counter()
        let result = Promise<Int>(error: TestError.boom).then { value -> Promise<Int> in
            ran.increment()
            return Promise(value: value)
        }
        #expect(await rejection(of: result) as? TestError == .boom)
        #expect(ran.current == 0)
    }

    @Test func aThrowingBodyRejectsTheChain() async {
        let result = Promise(value: 1).then { _ -> Promise<Int> in throw TestError.numbered(1) }
        #expect(await rejection(of: result) as? TestError == .numbered(1))
    }

    @Test func mapTransformsAndDoneConsumes() async throws {
        let seen = Recorder<String>()
        try await Promise(value: 172.0)
            .map { $0 / 100 }
            .done { seen.append("\($0)") }
            .value
        #expect(seen.events == ["1.72"])
    }

    @Test func errorsSkipEveryStepUntilTheCatch() async throws {
        let steps = Recorder<String>()
        let caught = Recorder<TestError>()
        try await Promise(value: 1)
            .map { _ -> Int in throw TestError.boom }
            .map { value -> Int in
                steps.append("map")
                return value
            }
            .done { _ in steps.append("done") }
            .catch { caught.append($0 as? TestError ?? .numbered(-1)) }
            .value
        #expect(steps.events.isEmpty)
        #expect(caught.events == [.boom])
    }

    @Test func firstlyTurnsASynchronousThrowIntoARejection() async {
        let result: Promise<Int> = firstly { throw TestError.boom }
        #expect(await rejection(of: result) as? TestError == .boom)
    }

    @Test func firstlyReturnsTheBodysPromise() async throws {
        #expect(try await firstly { Promise(value: "a") }.map { $0 + "b" }.value == "ab")
    }

    @Test func asVoidDiscardsTheValue() async throws {
        try await Promise(value: 5).asVoid().value
    }

    @Test func runsContinuationsOnTheRequestedExecutor() async throws {
        let submissions = Counter()
        let executor = FlowExecutor.custom { job in
            submissions.increment()
            job()
        }
        _ = try await Promise(value: 1).map(on: executor) { $0 + 1 }.then(on: executor) { Promise(value: $0) }.value
        #expect(submissions.current == 2)
    }

    @Test func runsOnTheDispatchQueueGiven() async throws {
        let queue = DispatchQueue(label: "then-tests")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "on-queue")
        let label = try await Promise(value: 0).map(on: .queue(queue)) { _ in DispatchQueue.getSpecific(key: key) }
            .value
        #expect(label == "on-queue")
    }

    @Test func runsOnTheOperationQueueGiven() async throws {
        let queue = OperationQueue()
        queue.name = "then-tests-operations"
        let name = try await Promise(value: 0).map(on: .operationQueue(queue)) { _ in OperationQueue.current?.name }
            .value
        #expect(name == "then-tests-operations")
    }

    @Test func continuationsOnASerialExecutorRunInAttachmentOrder() async throws {
        let queue = DispatchQueue(label: "ordering")
        let order = Recorder<Int>()
        let (promise, resolver) = Promise<Void>.pending()
        let chains = (0..<200).map { index in promise.done(on: .queue(queue)) { order.append(index) } }
        resolver.fulfill()
        _ = try await firstly { when(fulfilled: chains) }.value
        #expect(order.events == Array(0..<200))
    }

    @Test func immediateContinuationsRunBeforeFulfillReturns() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let chained = promise.map(on: .immediate) { $0 * 2 }.map(on: .immediate) { $0 + 1 }
        resolver.fulfill(20)
        #expect(try chained.result?.get() == 41)
    }
}
