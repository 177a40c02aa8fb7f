import FlowKit
import Foundation
import Testing

@Suite struct PromiseWhenTests {
    @Test func whenFulfilledKeepsInputOrderWhateverTheCompletionOrder() async throws {
        let pairs = (0..<5).map { _ in Promise<Int>.pending() }
        let all = firstly { when(fulfilled: pairs.map(\.promise)) }
        for index in [3, 1, 4, 0, 2] { pairs[index].resolver.fulfill(index * 10) }
        #expect(try await all.value == [0, 10, 20, 30, 40])
    }

    @Test func whenFulfilledOfNothingIsAnEmptyArray() async throws {
        #expect(try await firstly { when(fulfilled: [Promise<Int>]()) }.value == [])
    }

    @Test func whenFulfilledFailsFastWithTheFirstError() async {
        let slow = Promise<Int>.pending()
        let failing = Promise<Int>.pending()
        let all = firstly { when(fulfilled: [slow.promise, failing.promise]) }
        failing.resolver.reject(TestError.numbered(2))
        #expect(await rejection(of: all) as? TestError == .numbered(2))
        #expect(!slow.promise.isFulfilled)
    }

    @Test func whenFulfilledCancelsTheRemainingInputsWhenItFailsFast() async {
        let stopped = Counter()
        let (pending, resolver) = Promise<Int>.pending()
        resolver.onCancel { stopped.increment() }
        let all = firstly { when(fulfilled: [pending, Promise(error: TestError.boom)]) }
        #expect(await rejection(of: all) as? TestError == .boom)
        #expect(stopped.current == 1)
        #expect(await rejection(of: pending) is CancellationError)
    }

    @Test func whenFulfilledSparesAnInputThatSomethingElseStillNeeds() async throws {
        let (shared, resolver) = Promise<Int>.pending()
        let otherUse = shared.map { $0 + 1 }
        let failing = Promise<Int>.pending()
        let all = firstly { when(fulfilled: [shared, failing.promise]) }
        failing.resolver.reject(TestError.boom)
        #expect(await rejection(of: all) as? TestError == .boom)
        #expect(shared.isPending)
        resolver.fulfill(1)
        #expect(try await otherUse.value == 2)
    }

    @Test func whenResolvedCollectsEveryOutcomeInOrder() async throws {
        let a = Promise<Int>.pending()
        let results = firstly { when(resolved: [a.promise, Promise(error: TestError.boom), Promise(value: 3)]) }
        a.resolver.fulfill(1)
        let outcomes = try await results.value.map { result -> String in
            switch result {
            case .success(let value): "ok \(value)"
            case .failure(let error): "error \(error)"
            }
        }
        #expect(outcomes == ["ok 1", "error boom", "ok 3"])
    }

    @Test func tupleWhenCombinesHeterogeneousTypes() async throws {
        let (number, text) = try await firstly { when(fulfilled: Promise(value: 1), Promise(value: "a")) }.value
        #expect(number == 1 && text == "a")
        let (x, y, z) = try await firstly {
            when(fulfilled: Promise(value: 1), Promise(value: "b"), Promise(value: 2.5))
        }.value
        #expect(x == 1 && y == "b" && z == 2.5)
        let four = try await firstly {
            when(
                fulfilled: Promise(value: 1), Promise(value: "c"), Promise(value: true), Promise(value: [9])
            )
        }.value
        #expect(four.0 == 1 && four.1 == "c" && four.2 && four.3 == [9])
    }

    @Test func tupleWhenFailsFast() async {
        let slow = Promise<String>.pending()
        let result = firstly { when(fulfilled: Promise<Int>(error: TestError.boom), slow.promise) }
        #expect(await rejection(of: result) as? TestError == .boom)
    }

    @Test func whenFulfilledWorksAcrossThreads() async throws {
        let pairs = (0..<1000).map { _ in Promise<Int>.pending() }
        let all = firstly { when(fulfilled: pairs.map(\.promise)) }
        DispatchQueue.concurrentPerform(iterations: pairs.count) { pairs[$0].resolver.fulfill($0) }
        #expect(try await all.value == Array(0..<1000))
    }
}

@Suite struct PromiseRaceTests {
    @Test func raceSettlesLikeTheFirstToSettle() async throws {
        let a = Promise<Int>.pending()
        let b = Promise<Int>.pending()
        let winner = firstly { race(a.promise, b.promise) }
        b.resolver.fulfill(2)
        a.resolver.fulfill(1)
        #expect(try await winner.value == 2)
    }

    @Test func raceCanBeWonByAnError() async {
        let a = Promise<Int>.pending()
        let winner = firstly { race([a.promise, Promise(error: TestError.boom)]) }
        #expect(await rejection(of: winner) as? TestError == .boom)
    }

    @Test func raceCancelsTheLosers() async throws {
        let stopped = Counter()
        let loser = Promise<Int>.pending()
        loser.resolver.onCancel { stopped.increment() }
        _ = try await firstly { race(loser.promise, Promise(value: 1)) }.value
        #expect(stopped.current == 1)
    }

    @Test func raceOfNothingRejectsWithEmptyInput() async {
        #expect(
            await rejection(of: firstly { race([Promise<Int>]()) }) as? PromiseError == .emptyInput(operation: "race"))
    }

    @Test func anyFulfillsWithTheFirstSuccessIgnoringEarlierFailures() async throws {
        let slow = Promise<Int>.pending()
        let result = firstly { any([Promise(error: TestError.numbered(1)), slow.promise]) }
        slow.resolver.fulfill(5)
        #expect(try await result.value == 5)
    }

    @Test func anyRejectsWithEveryErrorInInputOrderWhenAllFail() async {
        let late = Promise<Int>.pending()
        let result = firstly { any([late.promise, Promise(error: TestError.numbered(2))]) }
        late.resolver.reject(TestError.numbered(1))
        let error = await rejection(of: result)
        #expect(error as? PromiseError == .allFailed([TestError.numbered(1), TestError.numbered(2)]))
    }

    @Test func anyCancelsTheOthersOnceOneFulfills() async throws {
        let stopped = Counter()
        let other = Promise<Int>.pending()
        other.resolver.onCancel { stopped.increment() }
        #expect(try await firstly { any([other.promise, Promise(value: 3)]) }.value == 3)
        #expect(stopped.current == 1)
    }

    @Test func anyOfNothingRejectsWithEmptyInput() async {
        #expect(
            await rejection(of: firstly { any([Promise<Int>]()) }) as? PromiseError == .emptyInput(operation: "any"))
    }
}

@Suite struct PromiseSequenceTests {
    @Test func reduceSequentiallyRunsStepsOneAfterAnother() async throws {
        let active = Counter()
        let maxActive = Recorder<Int>()
        let total = reduceSequentially(1...5, 0) { sum, item in
            maxActive.append(active.increment())
            return Promise { resolver in
                DispatchQueue.global().async {
                    active.increment(by: -1)
                    resolver.fulfill(sum + item)
                }
            }
        }
        #expect(try await total.value == 15)
        #expect(maxActive.events.allSatisfy { $0 == 1 })
    }

    @Test func forEachSequentiallyVisitsInOrderAndStopsAtTheFirstError() async {
        let visited = Recorder<Int>()
        let result = forEachSequentially(1...5) { item in
            visited.append(item)
            return item == 3 ? Promise(error: TestError.numbered(3)) : Promise(value: ())
        }
        #expect(await rejection(of: result) as? TestError == .numbered(3))
        #expect(visited.events == [1, 2, 3])
    }
}

extension Counter {
    func increment(by delta: Int) {
        for _ in 0..<abs(delta) { if delta > 0 { increment() } else { decrement() } }
    }
}
