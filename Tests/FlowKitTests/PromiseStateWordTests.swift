import FlowKit
import Foundation
import Testing

/// The windows the promise's atomic state word opens: a first continuation attached (the lock-free fast slot)
/// while another thread settles, cancels or attaches too. Each race runs `raceCount` times on two or three
/// threads that walk the same promises in the same order, so their operations overlap in every interleaving the
/// scheduler produces; every continuation must run exactly once, with the result the promise kept.
@Suite struct PromiseStateWordTests {
    /// Promises per race: a tenth of the stress scale (100,000 unless CI's sanitizer run lowers it).
    private let raceCount = max(1_000, stressCount / 10)

    @Test func aFirstContinuationAttachedWhileAnotherThreadSettlesRunsExactlyOnceWithTheValue() {
        let pairs = (0..<raceCount).map { _ in Promise<Int>.pending() }
        let runs = HitCounts(raceCount)
        let links = LinkList(raceCount)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 0..<pairs.count {
                if thread == 0 {
                    links.set(index, pairs[index].promise.map(on: .immediate) { value in runs.hit(value) })
                } else {
                    pairs[index].resolver.fulfill(index)
                }
            }
        }
        #expect(runs.all { $0 == 1 })
        #expect(links.all { $0.isFulfilled })
    }

    @Test func aContinuationAttachedWhileTwoThreadsSettleRunsOnceWithTheResultThatWon() {
        let pairs = (0..<raceCount).map { _ in Promise<Int>.pending() }
        let runs = HitCounts(raceCount)
        let seen = LockedState([Result<Int, TestError>?](repeating: nil, count: raceCount))
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
            for index in 0..<pairs.count {
                switch thread {
                case 0:
                    pairs[index].promise.tap(on: .immediate) { result in
                        runs.hit(index)
                        let outcome = result.mapError { $0 as? TestError ?? .boom }
                        seen.withLock { $0[index] = outcome }
                    }.finally(on: .immediate) {}
                case 1: pairs[index].resolver.fulfill(index)
                default: pairs[index].resolver.reject(TestError.numbered(index))
                }
            }
        }
        #expect(runs.all { $0 == 1 })
        let outcomes = seen.withLock { $0 }
        let agree = pairs.indices.allSatisfy { index in
            let kept = pairs[index].promise.result?.mapError { $0 as? TestError ?? .boom }
            return kept != nil && kept == outcomes[index]
        }
        #expect(agree)
    }

    @Test func twoContinuationsAttachedFromTwoThreadsWhileAThirdSettlesEachRunOnce() {
        let pairs = (0..<raceCount).map { _ in Promise<Int>.pending() }
        let runs = HitCounts(raceCount * 2)
        let links = LinkList(raceCount * 2)
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
            for index in 0..<pairs.count {
                if thread < 2 {
                    let slot = index * 2 + thread
                    links.set(slot, pairs[index].promise.map(on: .immediate) { _ in runs.hit(slot) })
                } else {
                    pairs[index].resolver.fulfill(index)
                }
            }
        }
        #expect(runs.all { $0 == 1 })
        #expect(links.all { $0.isFulfilled })
    }

    @Test func cancellingWhileTheOnlyLinkAttachesSettlesTheLinkOnceAndNeverRunsItsBody() {
        let pairs = (0..<raceCount).map { _ in Promise<Int>.pending() }
        let bodies = Counter()
        let links = LinkList(raceCount)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 0..<pairs.count {
                if thread == 0 {
                    links.set(index, pairs[index].promise.map(on: .immediate) { _ in _ = bodies.increment() })
                } else {
                    pairs[index].promise.cancel()
                }
            }
        }
        #expect(bodies.current == 0)
        #expect(
            links.all { link in
                if case .failure(let error)? = link.result { return error is CancellationError }
                return false
            })
    }

    @Test func continuationsRunInAttachmentOrderAcrossTheFastSlotAndTheList() {
        let (promise, resolver) = Promise<Int>.pending()
        let order = Recorder<Int>()
        let links = (0..<5).map { step in promise.map(on: .immediate) { _ in order.append(step) } }
        resolver.fulfill(1)
        #expect(order.events == [0, 1, 2, 3, 4])
        let allFulfilled = links.allSatisfy { $0.isFulfilled }
        #expect(allFulfilled)
    }

    @Test func aFastSlotLinkCountsAsTheSourcesOnlyDependent() {
        let (alone, _) = Promise<Int>.pending()
        alone.map(on: .immediate) { $0 }.cancel()
        #expect(alone.isRejected)

        let (shared, _) = Promise<Int>.pending()
        let first = shared.map(on: .immediate) { $0 }  // the fast slot
        let second = shared.map(on: .immediate) { $0 }  // the list
        first.cancel()
        #expect(shared.isPending)
        second.cancel()
        #expect(shared.isRejected)
    }

    @Test func aPromiseWithACancelHandlerStillRunsItsFirstLinkOnce() throws {
        let (promise, resolver) = Promise<Int>.pending()
        let cancelled = Counter()
        resolver.onCancel { cancelled.increment() }
        let link = promise.map(on: .immediate) { $0 + 1 }
        resolver.fulfill(1)
        #expect(try link.result?.get() == 2)
        #expect(cancelled.current == 0)
    }
}

extension PromiseStateWordTests {
    /// A link's source is read by its step and, when the link is cancelled at the same time, by the cancellation
    /// cascade; whichever lets go last releases it (a release too many would crash, one too few would leak).
    @Test func aTapLinkCancelledWhileItsSourceSettlesRunsOnceWithTheSourcesResultAndLetsGoOfTheSource() {
        let sources: [WeakPromise] = {
            let pairs = (0..<raceCount).map { _ in Promise<Int>.pending() }
            let runs = HitCounts(raceCount)
            let seen = LockedState([Int?](repeating: nil, count: raceCount))
            let links = pairs.indices.map { index in
                pairs[index].promise.tap(on: .immediate) { result in
                    runs.hit(index)
                    seen.withLock { $0[index] = (try? result.get()) ?? -1 }
                }
            }
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                for index in 0..<pairs.count {
                    if thread == 0 { pairs[index].resolver.fulfill(index) } else { links[index].cancel() }
                }
            }
            #expect(runs.all { $0 == 1 })
            let outcomes = seen.withLock { $0 }
            let agree = pairs.indices.allSatisfy { index in
                outcomes[index] == pairs[index].promise.result.map { (try? $0.get()) ?? -1 }
            }
            #expect(agree)
            #expect(links.allSatisfy { !$0.isPending })
            return pairs.map { WeakPromise($0.promise) }
        }()
        #expect(sources.allSatisfy { $0.promise == nil })
    }

    /// A link holds a reference to its source that its step gives back; when its executor drops the job, the step
    /// never runs, and freeing the link gives the reference back instead.
    @Test func aLinkWhoseStepNeverRunsLetsGoOfItsSourceWhenItIsFreed() {
        let source: WeakPromise = {
            let (promise, resolver) = Promise<Int>.pending()
            let dropsEveryJob = FlowExecutor.custom { _ in }
            _ = promise.map(on: dropsEveryJob) { $0 + 1 }
            resolver.fulfill(1)
            return WeakPromise(promise)
        }()
        #expect(source.promise == nil)
    }
}

/// A weak reference to a promise, to check that nothing keeps it once a test let go of it.
private struct WeakPromise {
    weak var promise: Promise<Int>?

    init(_ promise: Promise<Int>) {
        self.promise = promise
    }
}

/// How many times each index was hit, checked once the race is over.
private final class HitCounts: Sendable {
    private let counts: LockedState<[Int]>

    init(_ count: Int) {
        counts = LockedState([Int](repeating: 0, count: count))
    }

    func hit(_ index: Int) {
        counts.withLock { $0[index] += 1 }
    }

    func all(_ predicate: (Int) -> Bool) -> Bool {
        counts.withLock { $0 }.allSatisfy(predicate)
    }
}

/// The links a race attached, kept alive until it is checked.
private final class LinkList: Sendable {
    private let links: LockedState<[Promise<Void>?]>

    init(_ count: Int) {
        links = LockedState([Promise<Void>?](repeating: nil, count: count))
    }

    func set(_ index: Int, _ link: Promise<Void>) {
        links.withLock { $0[index] = link }
    }

    func all(_ predicate: (Promise<Void>) -> Bool) -> Bool {
        links.withLock { $0 }.allSatisfy { $0.map(predicate) ?? false }
    }
}
