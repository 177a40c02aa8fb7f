import FlowKit
import Foundation
import Testing

@Suite struct PromiseTests {
    @Test func fulfillsWithTheFirstValueAndIgnoresLaterResolutions() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.fulfill(1)
        resolver.fulfill(2)
        resolver.reject(TestError.boom)
        #expect(try await promise.value == 1)
    }

    @Test func rejectsWithTheFirstErrorAndIgnoresLaterFulfillment() async {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.reject(TestError.numbered(1))
        resolver.fulfill(2)
        #expect(await rejection(of: promise) as? TestError == .numbered(1))
    }

    @Test func startsPendingAndReportsItsState() {
        let (promise, resolver) = Promise<Int>.pending()
        #expect(promise.isPending && !promise.isFulfilled && !promise.isRejected)
        #expect(promise.result == nil)
        resolver.fulfill(3)
        #expect(!promise.isPending && promise.isFulfilled)
        #expect(Promise<Int>(error: TestError.boom).isRejected)
    }

    @Test func closureInitialiserRunsTheBodyAtOnce() async throws {
        let ran = Counter()
        let promise = Promise<String> { fulfill, _ in
            ran.increment()
            fulfill("now")
        }
        #expect(ran.current == 1)
        #expect(try await promise.value == "now")
    }

    @Test func closureInitialiserRejectsWhenTheBodyThrows() async {
        let promise = Promise<Int> { _, _ in throw TestError.boom }
        #expect(await rejection(of: promise) as? TestError == .boom)
    }

    @Test func throwingAfterFulfillingKeepsTheValue() async throws {
        let promise = Promise<Int> { fulfill, _ in
            fulfill(7)
            throw TestError.boom
        }
        #expect(try await promise.value == 7)
    }

    @Test func resolverInitialiserRejectsWhenTheBodyThrows() async {
        let promise = Promise<Int> { (_: Resolver<Int>) in throw TestError.numbered(9) }
        #expect(await rejection(of: promise) as? TestError == .numbered(9))
    }

    @Test func valueAndErrorInitialisersAreSettled() throws {
        #expect(try Promise(value: 5).result?.get() == 5)
        #expect(Promise(result: Result<Int, any Error>.failure(TestError.boom)).isRejected)
    }

    @Test func continuationAttachedAfterSettlementStillRuns() async throws {
        let promise = Promise(value: 10)
        #expect(try await promise.map { $0 + 1 }.value == 11)
    }

    @Test func everyContinuationRunsExactlyOnce() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let runs = Counter()
        let chains = (0..<50).map { _ in promise.done(on: .queue(.global())) { _ in runs.increment() } }
        resolver.fulfill(1)
        resolver.fulfill(2)
        _ = try await firstly { when(fulfilled: chains) }.value
        #expect(runs.current == 50)
    }

    @Test func describesItsState() {
        #expect(Promise(value: 42).description == "Promise<Int>(fulfilled: 42)")
        #expect(Promise<Int>.pending().promise.description == "Promise<Int>(pending)")
        #expect(Promise<Int>(error: TestError.boom).description == "Promise<Int>(rejected: boom)")
    }

    @Test func resolvingAPromiseWithItselfRejectsWithAChainingCycle() async {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(with: promise)
        #expect(await rejection(of: promise) as? PromiseError == .chainingCycle)
    }

    @Test func resolvingWithAnotherPromiseFollowsIt() async throws {
        let (outer, outerResolver) = Promise<Int>.pending()
        let (inner, innerResolver) = Promise<Int>.pending()
        outerResolver.resolve(with: inner)
        #expect(outer.isPending)
        innerResolver.fulfill(8)
        #expect(try await outer.value == 8)
    }
}

@Suite struct CallbackAdapterTests {
    @Test func valueErrorPairFulfillsWithTheValue() async throws {
        let promise = Promise<Int> { resolver in resolver.resolve(4, nil) }
        #expect(try await promise.value == 4)
    }

    @Test func valueErrorPairPrefersTheError() async {
        let promise = Promise<Int> { resolver in resolver.resolve(4, TestError.boom) }
        #expect(await rejection(of: promise) as? TestError == .boom)
    }

    @Test func valueErrorPairOfTwoNilsIsAnInvalidCallbackResult() async {
        let promise = Promise<Int> { resolver in resolver.resolve(nil, nil) }
        #expect(await rejection(of: promise) as? PromiseError == .invalidCallbackResult)
    }

    @Test func boolErrorPairMapsSuccessAndFailure() async throws {
        try await Promise<Void> { resolver in resolver.resolve(true, nil) }.value
        let failed = Promise<Void> { resolver in resolver.resolve(false, TestError.boom) }
        #expect(await rejection(of: failed) as? TestError == .boom)
        let silent = Promise<Void> { resolver in resolver.resolve(false, nil) }
        #expect(await rejection(of: silent) as? PromiseError == .invalidCallbackResult)
    }

    @Test func resultCompletionSettles() async throws {
        func load(completion: @escaping @Sendable (Result<Int, any Error>) -> Void) { completion(.success(3)) }
        #expect(try await Promise<Int> { resolver in load(completion: resolver.resolve) }.value == 3)
    }

    @Test func optionalErrorCompletionSettlesAVoidPromise() async throws {
        try await Promise<Void> { resolver in resolver.resolve(nil) }.value
        let failed = Promise<Void> { resolver in resolver.resolve(TestError.boom) }
        #expect(await rejection(of: failed) as? TestError == .boom)
    }

    @Test func wrapsAHealthKitStyleCallbackAPIInOneLine() async throws {
        struct FakeStore: Sendable {
            func save(_ value: Double, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
                DispatchQueue.global().async { completion(value > 0, value > 0 ? nil : TestError.boom) }
            }
        }
        let store = FakeStore()
        try await Promise<Void> { store.save(1.72, withCompletion: $0.resolve) }.value
        let failed = Promise<Void> { store.save(-1, withCompletion: $0.resolve) }
        #expect(await rejection(of: failed) as? TestError == .boom)
    }
}
