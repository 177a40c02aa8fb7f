import FlowKit
import Foundation
import Testing

/// The Promises/A+ rules that apply to a typed Swift promise, adapted: `then(onFulfilled)` is `map`/`then`,
/// `then(_, onRejected)` is `recover`/`catch`. Rules about non-function arguments or thenable coercion have no
/// Swift counterpart (the type system rules them out) and are left out.
@Suite struct PromisesAPlusTests {
    // 2.1.2 / 2.1.3: a settled promise never changes state.
    @Test func aFulfilledPromiseCannotBeRejectedLater() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.fulfill(1)
        resolver.reject(TestError.boom)
        #expect(try await promise.value == 1)
    }

    // 2.2.2.2 / 2.2.4: onFulfilled is not called before fulfilment, and never synchronously inside `then` — it
    // is handed to its executor, which runs it later (here: when the test drains the executor by hand).
    @Test func onFulfilledIsNotCalledBeforeFulfillmentNorInsideThen() {
        let order = Recorder<String>()
        let jobs = Recorder<@Sendable () -> Void>()
        let executor = FlowExecutor.custom { jobs.append($0) }
        let (promise, resolver) = Promise<Int>.pending()
        _ = promise.done(on: executor) { _ in order.append("onFulfilled") }
        order.append("attached")
        resolver.fulfill(1)
        order.append("fulfilled")
        _ = Promise(value: 1).done(on: executor) { _ in order.append("late onFulfilled") }
        order.append("attached late")
        #expect(order.events == ["attached", "fulfilled", "attached late"])
        jobs.take().forEach { $0() }
        #expect(order.events == ["attached", "fulfilled", "attached late", "onFulfilled", "late onFulfilled"])
    }

    // 2.2.2.3 / 2.2.3.3: called at most once.
    @Test func handlersAreCalledAtMostOnce() async throws {
        let calls = Counter()
        let (promise, resolver) = Promise<Int>.pending()
        let done = promise.done { _ in calls.increment() }
        resolver.fulfill(1)
        resolver.fulfill(2)
        try await done.value
        #expect(calls.current == 1)
    }

    // 2.2.6: handlers attached to the same promise run in attachment order.
    @Test func multipleHandlersRunInTheOrderTheyWereAttached() async throws {
        let order = Recorder<Int>()
        let (promise, resolver) = Promise<Int>.pending()
        let serial = FlowExecutor.queue(DispatchQueue(label: "a-plus"))
        let handlers = (0..<10).map { index in promise.done(on: serial) { _ in order.append(index) } }
        resolver.fulfill(0)
        _ = try await firstly { when(fulfilled: handlers) }.value
        #expect(order.events == Array(0..<10))
    }

    // 2.2.7.2: if onFulfilled throws, the derived promise rejects with that error.
    @Test func aThrowingHandlerRejectsTheDerivedPromise() async {
        let derived = Promise(value: 1).map { _ -> Int in throw TestError.numbered(7) }
        #expect(await rejection(of: derived) as? TestError == .numbered(7))
    }

    // 2.2.7.3 / 2.2.7.4: without a handler for the outcome, the derived promise takes the same outcome.
    @Test func unhandledOutcomesPassThroughUnchanged() async throws {
        #expect(try await Promise(value: 3).recover { _ in 0 }.value == 3)
        let rejected = Promise<Int>(error: TestError.boom).map { $0 + 1 }
        #expect(await rejection(of: rejected) as? TestError == .boom)
    }

    // 2.3.1: resolving a promise with itself rejects it.
    @Test func resolvingWithItselfRejects() async {
        let (promise, resolver) = Promise<Int>.pending()
        resolver.resolve(with: promise)
        #expect(await rejection(of: promise) as? PromiseError == .chainingCycle)
    }

    // 2.3.1 through `then`: a body returning the promise it produces rejects the same way.
    @Test func thenReturningItsOwnResultRejects() async {
        let holder = PromiseHolder()
        let (root, resolver) = Promise<Int>.pending()
        let derived = root.then { _ in holder.promise ?? Promise(value: 0) }
        holder.promise = derived
        resolver.fulfill(1)
        #expect(await rejection(of: derived) as? PromiseError == .chainingCycle)
    }

    // 2.3.2: adopting a pending promise stays pending until it settles, then takes its outcome.
    @Test func adoptingAPromiseTakesItsEventualState() async {
        let (inner, innerResolver) = Promise<Int>.pending()
        let outer = Promise(value: 0).then { _ in inner }
        innerResolver.reject(TestError.numbered(3))
        #expect(await rejection(of: outer) as? TestError == .numbered(3))
    }
}

/// Lets a `then` body return the promise `then` itself produced (rule 2.3.1).
final class PromiseHolder: @unchecked Sendable {
    // Written once before the root settles and read after; the promise's own lock orders the two accesses.
    var promise: Promise<Int>?
}
