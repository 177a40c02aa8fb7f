import FlowKit
import Testing

/// A value too large to be kept inside the promise object, so the promise keeps it in a box of its own.
private struct Wide: Equatable, Sendable {
    var first = "first"
    var second = "second"
    var third = 3
    var fourth = 4.0
    var fifth: [Int] = [5]
}

/// A value that holds an object, to watch when the promise lets go of it.
private struct Holding: Sendable {
    let tracked: Tracked
    var padding: (Int, Int, Int, Int) = (0, 0, 0, 0)
}

/// The promise keeps its result inline when it fits and boxed when it does not; both must read back the same,
/// survive every step of a chain and be released with the promise.
@Suite struct PromiseResultStorageTests {
    @Test func aValueTooLargeToKeepInlineReadsBackUnchanged() throws {
        let (promise, resolver) = Promise<Wide>.pending()
        resolver.fulfill(Wide())
        #expect(try promise.result?.get() == Wide())
        #expect(try promise.result?.get() == Wide())  // reading copies; the promise keeps its value
    }

    @Test func valuesOfEverySizeFlowThroughAChain() throws {
        let wide = Promise(value: Wide()).map(on: .immediate) { wide -> Wide in
            var changed = wide
            changed.fifth.append(6)
            return changed
        }
        #expect(try wide.result?.get().fifth == [5, 6])
        let empty = Promise(value: ()).map(on: .immediate) { _ in 1 as UInt8 }
        #expect(try empty.result?.get() == 1)
        let text = Promise(value: "height").then(on: .immediate) { Promise(value: $0 + " in cm") }
        #expect(try text.result?.get() == "height in cm")
        let optional = Promise<Int?>(value: nil).map(on: .immediate) { $0 ?? 7 }
        #expect(try optional.result?.get() == 7)
    }

    @Test func aFreedPromiseReleasesAnInlineValue() {
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            let promise = Promise(value: tracked)
            #expect(promise.isFulfilled)
        }
        #expect(weakTracked == nil)
    }

    @Test func aFreedPromiseReleasesABoxedValue() throws {
        weak var weakTracked: Tracked?
        do {
            let tracked = Tracked()
            weakTracked = tracked
            let (promise, resolver) = Promise<Holding>.pending()
            resolver.fulfill(Holding(tracked: tracked))
            #expect(try promise.result?.get().tracked === tracked)
        }
        #expect(weakTracked == nil)
    }

    @Test func aFreedPromiseReleasesItsError() {
        final class TrackedError: Error, @unchecked Sendable {}
        weak var weakError: TrackedError?
        do {
            let error = TrackedError()
            weakError = error
            let rejected = Promise<Wide>(error: error).map(on: .immediate) { $0.third }
            guard case .failure(let seen)? = rejected.result else {
                Issue.record("the chain did not reject")
                return
            }
            #expect(seen as? TrackedError === error)
        }
        #expect(weakError == nil)
    }

    @Test func aCancelHandlerAddedAfterAnOrdinaryRejectionNeverRuns() {
        let ran = Counter()
        let (promise, resolver) = Promise<Wide>.pending()
        resolver.reject(TestError.boom)
        resolver.onCancel { ran.increment() }
        #expect(ran.current == 0 && promise.isRejected)
        let (cancelled, cancelledResolver) = Promise<Wide>.pending()
        cancelled.cancel()
        cancelledResolver.onCancel { ran.increment() }
        #expect(ran.current == 1)
    }

    @Test func aLaterResolutionLeavesTheFirstValueInPlace() throws {
        let (promise, resolver) = Promise<Wide>.pending()
        var first = Wide()
        first.third = 1
        resolver.fulfill(first)
        resolver.fulfill(Wide())
        resolver.reject(TestError.boom)
        promise.cancel()
        #expect(try promise.result?.get() == first)
    }
}
