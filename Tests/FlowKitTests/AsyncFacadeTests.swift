import FlowKit
import FlowKitTesting
import Foundation
import Testing

@Suite struct AsyncFacadeTests {
    @Test func awaitingAPromiseReturnsItsValueOrThrowsItsError() async throws {
        let (promise, resolver) = Promise<Int>.pending()
        DispatchQueue.global().async { resolver.fulfill(12) }
        #expect(try await promise.value == 12)
        await #expect(throws: TestError.boom) { try await Promise<Int>(error: TestError.boom).value }
    }

    @Test func settledReturnsTheResultWithoutThrowing() async {
        let result = await Promise<Int>(error: TestError.boom).settled
        #expect(throws: TestError.boom) { try result.get() }
    }

    @Test func aPromiseMadeFromAsyncWorkSettlesWithItsOutcome() async throws {
        #expect(try await Promise { await Task.detached { 5 }.value }.value == 5)
        let failing = Promise<Int> { throw TestError.boom }
        #expect(await rejection(of: failing) as? TestError == .boom)
    }

    @Test func asyncAfterSleepsOnTheSchedulersClock() async throws {
        let scheduler = ManualScheduler()
        let finished = Counter()
        let task = Task {
            try await after(.seconds(10), on: scheduler)
            finished.increment()
        }
        await scheduler.waitForPendingWork()
        #expect(finished.current == 0)
        scheduler.advance(by: .seconds(10))
        try await task.value
        #expect(finished.current == 1)
    }

    @Test func asyncTimeoutThrowsTimedOutAndCancelsTheOperation() async throws {
        let scheduler = ManualScheduler()
        let operationCancelled = Counter()
        let task = Task {
            try await timeout(.seconds(2), on: scheduler) { () async throws -> Int in
                do {
                    try await after(.seconds(100), on: scheduler)
                } catch {
                    operationCancelled.increment()
                    throw error
                }
                return 1
            }
        }
        await scheduler.waitForPendingWork(count: 2)
        scheduler.advance(by: .seconds(2))
        await #expect(throws: PromiseError.timedOut(after: .seconds(2))) { try await task.value }
        #expect(operationCancelled.current == 1)
    }

    @Test func asyncTimeoutReturnsAnEarlyValue() async throws {
        let value = try await timeout(.seconds(1), on: ManualScheduler()) { () async throws -> Int in 7 }
        #expect(value == 7)
    }

    @Test func asyncTimeoutOverAPromiseBodyLimitsThePromise() async throws {
        let scheduler = ManualScheduler()
        let task = Task { try await timeout(.seconds(1), on: scheduler) { Promise<Int>.pending().promise } }
        await scheduler.waitForPendingWork()
        scheduler.advance(by: .seconds(1))
        await #expect(throws: PromiseError.timedOut(after: .seconds(1))) { try await task.value }
    }

    @Test func asyncRetryRetriesWithBackoffOnTheScheduler() async throws {
        let scheduler = ManualScheduler()
        let attempts = Counter()
        let task = Task {
            try await retry(attempts: 3, backoff: .constant(.seconds(1)), on: scheduler) { () async throws -> String in
                if attempts.increment() < 3 { throw TestError.boom }
                return "ok"
            }
        }
        await scheduler.waitForPendingWork()
        scheduler.advance(by: .seconds(1))
        await scheduler.waitForPendingWork()
        scheduler.advance(by: .seconds(1))
        #expect(try await task.value == "ok")
        #expect(attempts.current == 3)
    }

    @Test func asyncRetryOverAPromiseBodyRetriesThePromises() async throws {
        let attempts = Counter()
        let value = try await retry(attempts: 3, backoff: .immediate, on: ManualScheduler()) {
            attempts.increment() < 2 ? Promise<Int>(error: TestError.boom) : Promise(value: 9)
        }
        #expect(value == 9 && attempts.current == 2)
    }

    @Test func asyncRetryStopsOnAnErrorThePredicateRejects() async {
        let attempts = Counter()
        await #expect(throws: TestError.numbered(1)) {
            try await retry(
                attempts: 5, backoff: .immediate, on: ManualScheduler(),
                { () async throws -> Int in
                    attempts.increment()
                    throw TestError.numbered(1)
                }, while: { _ in false })
        }
        #expect(attempts.current == 1)
    }

    @Test func asyncRetryWithAYesNoPredicateNeverRetriesACancellation() async {
        let attempts = Counter()
        await #expect(throws: CancellationError.self) {
            try await retry(
                attempts: 5, backoff: .immediate, on: ManualScheduler(),
                { () async throws -> Int in
                    attempts.increment()
                    throw CancellationError()
                }, while: { _ in true })
        }
        #expect(attempts.current == 1)
    }

    @Test func asyncWhenFailsFastAndCancelsTheOthers() async {
        let scheduler = ManualScheduler()
        let cancelled = Counter()
        await #expect(throws: TestError.boom) {
            try await when(fulfilled: [
                { @Sendable () async throws -> Int in throw TestError.boom },
                { @Sendable () async throws -> Int in
                    do { try await after(.seconds(60), on: scheduler) } catch {
                        cancelled.increment()
                        throw error
                    }
                    return 1
                },
            ])
        }
        #expect(cancelled.current == 1)
    }

    @Test func asyncTupleWhenReturnsHeterogeneousValues() async throws {
        let (a, b) = try await when(fulfilled: { 1 }, { "two" })
        let (c, d, e) = try await when(fulfilled: { 1 }, { "two" }, { 3.0 })
        let four = try await when(fulfilled: { 1 }, { "two" }, { 3.0 }, { [4] })
        #expect(a == 1 && b == "two" && c == 1 && d == "two" && e == 3.0 && four.3 == [4])
    }

    @Test func asyncRaceCancelsTheLosers() async throws {
        let scheduler = ManualScheduler()
        let cancelled = Counter()
        let winner = try await race([
            { @Sendable () async throws -> Int in
                do { try await after(.seconds(60), on: scheduler) } catch {
                    cancelled.increment()
                    throw error
                }
                return 1
            },
            { @Sendable in 2 },
        ])
        #expect(winner == 2 && cancelled.current == 1)
    }
}

/// The same inputs through a promise combinator and its async twin must give the same outcome.
@Suite struct AsyncParityTests {
    /// Input scripts: each element fulfils with its number or rejects with `.numbered(n)` when negative.
    static let scripts: [[Int]] = [[], [1], [1, 2, 3], [-1], [1, -2, 3], [-1, -2], [-3, 4]]

    static func promise(_ value: Int) -> Promise<Int> {
        value < 0 ? Promise(error: TestError.numbered(value)) : Promise(value: value)
    }

    static func operation(_ value: Int) -> @Sendable () async throws -> Int {
        { if value < 0 { throw TestError.numbered(value) } else { return value } }
    }

    static func describe<T>(_ result: Result<T, any Error>) -> String {
        switch result {
        case .success(let value): "value \(value)"
        case .failure(let error): "error \(error)"
        }
    }

    /// Both fail fast with *the first error to happen*. When several inputs fail, which one happens first is a
    /// race for the task group (its children run concurrently), so the check is that each style reports one of
    /// the failing inputs' errors; with one failure or none, the outcomes must be identical.
    @Test(arguments: scripts) func whenFulfilledMatchesItsAsyncTwin(script: [Int]) async {
        let promised = await firstly { when(fulfilled: script.map(Self.promise)) }.settled
        let awaited = await Result { try await when(fulfilled: script.map(Self.operation)) }
        let failures = Set(
            script.filter { $0 < 0 }.map { Self.describe(Result<Int, any Error>.failure(TestError.numbered($0))) })
        if failures.count > 1 {
            #expect(failures.contains(Self.describe(promised)))
            #expect(failures.contains(Self.describe(awaited)))
        } else {
            #expect(Self.describe(promised) == Self.describe(awaited))
        }
    }

    @Test(arguments: scripts) func whenResolvedMatchesItsAsyncTwin(script: [Int]) async throws {
        let promised = try await firstly { when(resolved: script.map(Self.promise)) }.value.map(Self.describe)
        let awaited = await when(resolved: script.map(Self.operation)).map(Self.describe)
        #expect(promised == awaited)
    }

    @Test(arguments: scripts.filter { $0.count <= 1 || $0.allSatisfy { $0 < 0 } })
    func anyMatchesItsAsyncTwin(script: [Int]) async {
        let promised = await firstly { any(script.map(Self.promise)) }.settled
        let awaited = await Result { try await any(script.map(Self.operation)) }
        #expect(Self.describe(promised) == Self.describe(awaited))
    }

    @Test(arguments: scripts.filter { $0.count <= 1 }) func raceMatchesItsAsyncTwin(script: [Int]) async {
        let promised = await firstly { race(script.map(Self.promise)) }.settled
        let awaited = await Result { try await race(script.map(Self.operation)) }
        #expect(Self.describe(promised) == Self.describe(awaited))
    }

    @Test func retryMatchesItsAsyncTwin() async {
        for failures in 0...4 {
            let promiseAttempts = Counter()
            let promised: Promise<Int> = firstly {
                retry(attempts: 3, backoff: .immediate, on: ManualScheduler()) {
                    promiseAttempts.increment() <= failures
                        ? Promise(error: TestError.numbered(failures)) : Promise(value: 1)
                }
            }
            let asyncAttempts = Counter()
            let awaited = await Result {
                try await retry(attempts: 3, backoff: .immediate, on: ManualScheduler()) { () async throws -> Int in
                    if asyncAttempts.increment() <= failures { throw TestError.numbered(failures) }
                    return 1
                }
            }
            #expect(Self.describe(await promised.settled) == Self.describe(awaited))
            #expect(promiseAttempts.current == asyncAttempts.current)
        }
    }
}

extension Result where Failure == any Error {
    /// `Result { try await … }` for the parity tests.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
