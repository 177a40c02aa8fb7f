import ExampleSupport
import FlowKit
import FlowKitTesting
import HealthFlow
import ReadHeightsExample
import Testing

@Suite(.timeLimit(.minutes(10))) struct ExerciseReadHeightsTests {
    // Exercise 1: averageHeightInMetres(in:)

    @Test func averagesEveryHeight() async throws {
        let context = ExampleContext.embedded()
        try await ReadHeightsExample.prepare(context)  // 1.70, 1.71 and 1.72 m
        let average = try #require(
            try await answers.averageHeightInMetres(in: context),
            "with heights in the store, the average must not be nil")
        #expect(abs(average - 1.71) < 1e-9, "the average of 1.70, 1.71 and 1.72 m is 1.71 m")
    }

    @Test func isNilWithoutHeights() async throws {
        let context = ExampleContext.embedded()
        try await context.store.requestAuthorization(toShare: [], read: [.height])
        #expect(try await answers.averageHeightInMetres(in: context) == nil, "with no heights, the average must be nil")
    }

    // Exercise 2: readHeights(within:on:fetch:)

    @Test func fulfilsInTimeAndLeavesNoTimer() async throws {
        let context = ExampleContext.embedded()
        try await ReadHeightsExample.prepare(context)
        let scheduler = ManualScheduler()
        let lines = try await answers.readHeights(within: .seconds(10), on: scheduler) {
            readHeightsWithPromises(in: context)
        }
        .value
        #expect(
            lines == ["1.72 m  2026-10-21", "1.71 m  2025-11-20", "1.7 m  2024-11-20"],
            "a fetch that finishes in time must give its lines")
        #expect(scheduler.now == .zero, "a fetch that finishes in time must not wait for the clock")
        try scheduler.checkNoPendingWork()
    }

    @Test func timesOutAfterTheLimitAndCancelsTheFetch() async throws {
        let scheduler = ManualScheduler()
        let stopped = LockedState(false)
        let heights = answers.readHeights(within: .seconds(10), on: scheduler) {
            Promise<[String]> { resolver in resolver.onCancel { stopped.withLock { $0 = true } } }
        }
        #expect(scheduler.nextDeadline == .seconds(10), "the timer must be set for the limit: 10 s")
        scheduler.advance(by: .seconds(9))
        #expect(heights.isPending, "at 9 s the promise must still be waiting")
        #expect(!stopped.withLock { $0 }, "at 9 s the fetch must not be cancelled yet")
        scheduler.advance(by: .seconds(1))
        await #expect(
            throws: PromiseError.timedOut(after: .seconds(10)),
            "at 10 s the promise must reject with PromiseError.timedOut(after: .seconds(10))"
        ) { try await heights.value }
        #expect(stopped.withLock { $0 }, "when the time runs out, the fetch must be cancelled")
        try scheduler.checkNoPendingWork()
    }

    @Test func cancellingTheReturnedPromiseCancelsTheFetchAndTheTimer() async throws {
        let scheduler = ManualScheduler()
        let stopped = LockedState(false)
        let heights = answers.readHeights(within: .seconds(10), on: scheduler) {
            Promise<[String]> { resolver in resolver.onCancel { stopped.withLock { $0 = true } } }
        }
        heights.cancel()
        #expect(
            stopped.withLock { $0 },
            "when the caller cancels the promise readHeights returned, the fetch must be cancelled too")
        await #expect(throws: CancellationError.self, "a cancelled fetch rejects with CancellationError") {
            try await heights.value
        }
        try scheduler.checkNoPendingWork()
    }
}
