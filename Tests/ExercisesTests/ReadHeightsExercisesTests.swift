import ExampleSupport
import Exercises
import FlowKit
import FlowKitTesting
import HealthFlow
import ReadHeightsExample
import Testing

@Suite struct ExerciseReadHeightsTests {
    // Exercise 1: averageHeightInMetres(in:)

    @Test func averagesEveryHeight() async throws {
        let context = ExampleContext.embedded()
        try await ReadHeightsExample.prepare(context)  // 1.70, 1.71 and 1.72 m
        let average = try #require(try await averageHeightInMetres(in: context))
        #expect(abs(average - 1.71) < 1e-9)
    }

    @Test func isNilWithoutHeights() async throws {
        let context = ExampleContext.embedded()
        try await context.store.requestAuthorization(toShare: [], read: [.height])
        #expect(try await averageHeightInMetres(in: context) == nil)
    }

    // Exercise 2: readHeights(within:on:fetch:)

    @Test func fulfilsInTimeAndLeavesNoTimer() async throws {
        let context = ExampleContext.embedded()
        try await ReadHeightsExample.prepare(context)
        let scheduler = ManualScheduler()
        let lines = try await readHeights(within: .seconds(10), on: scheduler) { readHeightsWithPromises(in: context) }
            .value
        #expect(lines == ["1.72 m  2026-10-21", "1.71 m  2025-11-20", "1.7 m  2024-11-20"])
        #expect(scheduler.now == .zero)
        try scheduler.checkNoPendingWork()
    }

    @Test func timesOutAfterTheLimitAndCancelsTheFetch() async throws {
        let scheduler = ManualScheduler()
        let stopped = LockedState(false)
        let heights = readHeights(within: .seconds(10), on: scheduler) {
            Promise<[String]> { resolver in resolver.onCancel { stopped.withLock { $0 = true } } }
        }
        #expect(scheduler.nextDeadline == .seconds(10))
        scheduler.advance(by: .seconds(9))
        #expect(heights.isPending)
        #expect(!stopped.withLock { $0 })
        scheduler.advance(by: .seconds(1))
        await #expect(throws: PromiseError.timedOut(after: .seconds(10))) { try await heights.value }
        #expect(stopped.withLock { $0 })
        try scheduler.checkNoPendingWork()
    }
}
