import FlowKit
import Testing

@Suite struct AsyncCombinatorsOverPromisesTests {
    @Test func awaitedWhenFulfilledReturnsTheValuesInInputOrder() async throws {
        let (first, resolveFirst) = Promise<Int>.pending()
        let (second, resolveSecond) = Promise<Int>.pending()
        resolveSecond.fulfill(2)
        resolveFirst.fulfill(1)
        let values: [Int] = try await when(fulfilled: [first, second, Promise(value: 3)])
        #expect(values == [1, 2, 3])
    }

    @Test func awaitedWhenFulfilledThrowsTheFirstRejection() async {
        await #expect(throws: TestError.boom) {
            try await when(fulfilled: [Promise(value: 1), Promise<Int>(error: TestError.boom)])
        }
    }

    @Test func awaitedTupleWhenReturnsValuesOfDifferentTypes() async throws {
        let (a, b) = try await when(fulfilled: Promise(value: 1), Promise(value: "two"))
        let (c, d, e) = try await when(fulfilled: Promise(value: 1), Promise(value: "two"), Promise(value: 3.0))
        let four = try await when(
            fulfilled: Promise(value: 1), Promise(value: "two"), Promise(value: 3.0), Promise(value: [4]))
        #expect(a == 1 && b == "two" && c == 1 && d == "two" && e == 3.0 && four.3 == [4])
        await #expect(throws: TestError.boom) {
            try await when(fulfilled: Promise(value: 1), Promise<String>(error: TestError.boom))
        }
    }

    @Test func awaitedWhenResolvedReturnsEveryOutcomeWithoutThrowingForThem() async throws {
        let results = try await when(resolved: [Promise(value: 1), Promise<Int>(error: TestError.boom)])
        #expect(try results[0].get() == 1)
        #expect(throws: TestError.boom) { try results[1].get() }
    }

    @Test func awaitedRaceReturnsTheFirstToSettle() async throws {
        // A loser is released and cancelled, so every race gets a fresh one.
        func slow() -> Promise<Int> { Promise<Int>.pending().promise }
        #expect(try await race([slow(), Promise(value: 2)]) == 2)
        #expect(try await race(slow(), Promise(value: 3)) == 3)
        await #expect(throws: TestError.boom) { try await race(slow(), Promise<Int>(error: TestError.boom)) }
        await #expect(throws: PromiseError.emptyInput(operation: "race")) { try await race([Promise<Int>]()) }
    }

    @Test func awaitedAnyReturnsTheFirstValueAndThrowsOnlyWhenAllFailed() async throws {
        #expect(try await any([Promise<Int>(error: TestError.boom), Promise(value: 5)]) == 5)
        let failures = [Promise<Int>(error: TestError.numbered(1)), Promise<Int>(error: TestError.numbered(2))]
        do {
            _ = try await any(failures)
            Issue.record("any over two rejections returned a value")
        } catch PromiseError.allFailed(let errors) {
            #expect(errors.map { $0 as? TestError } == [.numbered(1), .numbered(2)])
        }
    }

    /// Each combinator awaited over two pending inputs; the inputs must be cancelled with the awaiting task.
    static let awaitedCombinators: [(name: String, await: @Sendable ([Promise<Int>]) async throws -> Void)] = [
        ("when(fulfilled:) over a sequence", { _ = try await when(fulfilled: $0) }),
        ("when(fulfilled:_:)", { _ = try await when(fulfilled: $0[0], $0[1]) }),
        ("when(fulfilled:_:_:)", { _ = try await when(fulfilled: $0[0], $0[1], $0[1].map { $0 }) }),
        ("when(fulfilled:_:_:_:)", { _ = try await when(fulfilled: $0[0], $0[1], $0[0].map { $0 }, $0[1].map { $0 }) }),
        ("when(resolved:)", { _ = try await when(resolved: $0) }),
        ("race(_:) over a sequence", { _ = try await race($0) }),
        ("race(_:_:)", { _ = try await race($0[0], $0[1]) }),
        ("any(_:)", { _ = try await any($0) }),
    ]

    @Test(arguments: awaitedCombinators.indices)
    func cancellingTheAwaitingTaskCancelsTheInputs(_ index: Int) async {
        let (name, awaitCombinator) = Self.awaitedCombinators[index]
        let cancelled = Counter()
        let inputs = (0..<2).map { _ in
            let (promise, resolver) = Promise<Int>.pending()
            resolver.onCancel { cancelled.increment() }
            return promise
        }
        let task = Task { try await awaitCombinator(inputs) }
        task.cancel()
        let outcome = await task.result
        #expect(throws: CancellationError.self, "awaiting \(name) in a cancelled task must throw CancellationError") {
            try outcome.get()
        }
        #expect(cancelled.current == 2, "awaiting \(name) in a cancelled task must cancel both inputs")
    }
}
