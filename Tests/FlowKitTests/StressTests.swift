import FlowKit
import Foundation
import Testing

/// Million-element tests of the engine's stack safety and exactly-once settlement. Each is bounded in count
/// (``stressCount``, one million unless CI's sanitizer run lowers it) and finishes by itself.
@Suite struct StressTests {
    @Test func aMillionLinkChainCompletesWithoutGrowingTheStack() throws {
        let (root, resolver) = Promise<Int>.pending()
        var end = root
        for _ in 0..<stressCount { end = end.map(on: .immediate) { $0 + 1 } }
        resolver.fulfill(0)
        #expect(try end.result?.get() == stressCount)
    }

    @Test func aMillionLinkChainOfThensCompletesWithoutGrowingTheStack() throws {
        let (root, resolver) = Promise<Int>.pending()
        var end = root
        for _ in 0..<stressCount { end = end.then(on: .immediate) { Promise(value: $0 + 1) } }
        resolver.fulfill(0)
        #expect(try end.result?.get() == stressCount)
    }

    @Test func aMillionLinkRejectionPropagatesWithoutGrowingTheStack() {
        let (root, resolver) = Promise<Int>.pending()
        var end = root
        for _ in 0..<stressCount { end = end.map(on: .immediate) { $0 } }
        resolver.reject(TestError.boom)
        guard case .failure(let error)? = end.result else {
            Issue.record("chain did not reject")
            return
        }
        #expect(error as? TestError == .boom)
    }

    @Test func aMillionPromisesResolvedWithEachOtherSettleInOneCascade() throws {
        let pairs = (0..<stressCount).map { _ in Promise<Int>.pending() }
        for index in 0..<(pairs.count - 1) {
            pairs[index].resolver.resolve(with: pairs[index + 1].promise)
        }
        pairs[pairs.count - 1].resolver.fulfill(7)
        #expect(try pairs[0].promise.result?.get() == 7)
    }

    @Test func aChainOnADispatchQueueCompletes() async throws {
        let queue = DispatchQueue(label: "stress-chain")
        let (root, resolver) = Promise<Int>.pending()
        var end = root
        for _ in 0..<(stressCount / 10) { end = end.map(on: .queue(queue)) { $0 + 1 } }
        resolver.fulfill(0)
        #expect(try await end.value == stressCount / 10)
    }

    @Test func whenOverAMillionPendingPromisesCompletes() throws {
        let pairs = (0..<stressCount).map { _ in Promise<Int>.pending() }
        let all = when(fulfilled: pairs.map(\.promise))
        for (index, pair) in pairs.enumerated() { pair.resolver.fulfill(index) }
        let values = try #require(try all.result?.get())
        #expect(values.count == stressCount && values.first == 0 && values.last == stressCount - 1)
    }

    @Test func whenOverAMillionResolvedPromisesCompletes() throws {
        let inputs = (0..<stressCount).map { Promise(value: $0) }
        let values = try #require(try when(fulfilled: inputs).result?.get())
        #expect(values.count == stressCount)
    }

    @Test func aMillionResolveAndRejectRacesFromSeveralThreadsSettleEachPromiseOnce() {
        let count = stressCount
        let pairs = (0..<count).map { _ in Promise<Int>.pending() }
        let settlements = Counter()
        for pair in pairs {
            _ = pair.promise.tap(on: .immediate) { _ in settlements.increment() }
        }
        let threads = 4
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<count {
                switch (index + thread) % 3 {
                case 0: pairs[index].resolver.fulfill(thread)
                case 1: pairs[index].resolver.reject(TestError.numbered(thread))
                default: pairs[index].promise.cancel()
                }
            }
        }
        #expect(settlements.current == count)
        #expect(pairs.allSatisfy { !$0.promise.isPending })
    }

    @Test func continuationsAttachedFromManyThreadsWhileSettlingEachRunOnce() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        let runs = Counter()
        let chains = LockedState<[Promise<Void>]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for attached in 0..<2_000 {
                let chain = promise.done(on: .immediate) { _ in runs.increment() }
                chains.withLock { $0.append(chain) }
                if thread == 3 && attached == 1_000 { resolver.fulfill(1) }
            }
        }
        _ = try await firstly { when(fulfilled: chains.withLock { $0 }) }.value
        #expect(runs.current == 16_000)
    }
}

@Suite struct MemoryTests {
    @Test func aFinishedChainIsFreed() throws {
        weak var weakRoot: Promise<Int>?
        weak var weakMiddle: Promise<Int>?
        weak var weakCaptured: Tracked?
        var end: Promise<Int>?
        do {
            let (root, resolver) = Promise<Int>.pending()
            let captured = Tracked()
            let middle = root.map(on: .immediate) { value in
                withExtendedLifetime(captured) { value + 1 }
            }
            end = middle.then(on: .immediate) { Promise(value: $0 * 2) }
            weakRoot = root
            weakMiddle = middle
            weakCaptured = captured
            resolver.fulfill(1)
        }
        #expect(try end?.result?.get() == 4)
        #expect(weakRoot == nil)
        #expect(weakMiddle == nil)
        #expect(weakCaptured == nil)
    }

    @Test func aSettledPromiseKeepsNoClosures() {
        weak var weakCaptured: Tracked?
        let (promise, resolver) = Promise<Int>.pending()
        do {
            let captured = Tracked()
            weakCaptured = captured
            _ = promise.done(on: .immediate) { _ in withExtendedLifetime(captured) {} }
            #expect(weakCaptured != nil)
        }
        resolver.fulfill(1)
        #expect(weakCaptured == nil)
        #expect(promise.isFulfilled)
    }

    @Test func aCancelledPromiseReleasesItsHandlersAndUpstream() {
        weak var weakUpstream: Promise<Int>?
        weak var weakHandlerCapture: Tracked?
        var downstream: Promise<Int>?
        do {
            let (upstream, resolver) = Promise<Int>.pending()
            let captured = Tracked()
            resolver.onCancel { withExtendedLifetime(captured) {} }
            downstream = upstream.map(on: .immediate) { $0 }
            weakUpstream = upstream
            weakHandlerCapture = captured
        }
        downstream?.cancel()
        #expect(weakUpstream == nil)
        #expect(weakHandlerCapture == nil)
    }

    @Test func aCancelledLinkNeverRunsItsBodyAndReleasesItOnceItsSourceSettles() throws {
        weak var weakCaptured: Tracked?
        let ran = Counter()
        let (source, resolver) = Promise<Int>.pending()
        let sibling = source.map(on: .immediate) { $0 + 1 }  // keeps the source wanted after the link is cancelled
        var link: Promise<Int>?
        do {
            let captured = Tracked()
            weakCaptured = captured
            link = source.map(on: .immediate) { value in
                _ = withExtendedLifetime(captured) { ran.increment() }
                return value
            }
        }
        link?.cancel()
        #expect(source.isPending)
        resolver.fulfill(1)
        #expect(weakCaptured == nil)
        #expect(ran.current == 0)
        #expect(link?.isRejected == true)
        #expect(try sibling.result?.get() == 2)
    }

    @Test func aLinkOnAQueueReleasesItsSourceAndBodyOnceItRan() async throws {
        weak var weakSource: Promise<Int>?
        weak var weakCaptured: Tracked?
        let queue = DispatchQueue(label: "link")
        let link: Promise<Int>
        do {
            let (source, resolver) = Promise<Int>.pending()
            let captured = Tracked()
            link = source.map(on: .queue(queue)) { value in
                withExtendedLifetime(captured) { value * 3 }
            }
            weakSource = source
            weakCaptured = captured
            resolver.fulfill(5)
        }
        #expect(try await link.value == 15)
        queue.sync {}  // the job that settled `link` has returned (and dropped what it held)
        #expect(weakSource == nil)
        #expect(weakCaptured == nil)
    }

    @Test func combinatorsReleaseTheirInputsOnceSettled() throws {
        weak var weakInput: Promise<Int>?
        var all: Promise<[Int]>?
        do {
            let (input, resolver) = Promise<Int>.pending()
            weakInput = input
            all = when(fulfilled: [input, Promise(value: 2)])
            resolver.fulfill(1)
        }
        #expect(try all?.result?.get() == [1, 2])
        #expect(weakInput == nil)
    }
}
