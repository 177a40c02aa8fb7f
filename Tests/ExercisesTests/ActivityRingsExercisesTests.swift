import ActivityRingsExample
import FlowKit
import Foundation
import HealthFlow
import Testing

@Suite(.timeLimit(.minutes(10))) struct ExerciseActivityRingsTests {
    struct Unreachable: Error, Equatable {}

    /// A fake service: holds each move-goal completion until the test answers it, and records cancellations.
    final class FakeService: ActivityGoalTracking {
        final class Fetch: ActivityFetch {
            private let cancelled = LockedState(false)
            var isCancelled: Bool { cancelled.withLock { $0 } }
            func cancel() { cancelled.withLock { $0 = true } }
        }

        private let state = LockedState<
            (completions: [@Sendable (Result<HealthQuantity, any Error>) -> Void], fetches: [Fetch], days: [Date])
        >(
            ([], [], []))

        var fetches: [Fetch] { state.withLock { $0.fetches } }
        var days: [Date] { state.withLock { $0.days } }

        func fetchActivitySummaries(
            from start: Date, to end: Date,
            completion: @escaping @Sendable (Result<[ActivitySummary], any Error>) -> Void
        ) {
            completion(.success([]))
        }

        func fetchMoveGoal(
            for day: Date, completion: @escaping @Sendable (Result<HealthQuantity, any Error>) -> Void
        ) -> any ActivityFetch {
            let fetch = Fetch()
            state.withLock { state in
                state.completions.append(completion)
                state.fetches.append(fetch)
                state.days.append(day)
            }
            return fetch
        }

        func answer(_ result: Result<HealthQuantity, any Error>) {
            let completion = state.withLock { $0.completions.last }
            completion?(result)
        }
    }

    static let goal = HealthQuantity(unit: .kilocalorie(), doubleValue: 500)
    static let day = Date(timeIntervalSince1970: 1_795_132_800)

    // Exercise 1: moveGoal(for:)

    @Test func fulfilsWithTheServicesAnswer() async throws {
        let service = FakeService()
        let goal = answers.moveGoal(of: service, for: Self.day)
        #expect(service.days == [Self.day], "moveGoal must ask the service once, for the given day")
        #expect(goal.isPending, "the promise must wait for the service's completion")
        service.answer(.success(Self.goal))
        #expect(try await goal.value == Self.goal, "the promise must fulfil with the goal the service answered")
        #expect(service.fetches.count == 1, "moveGoal must start exactly one fetch")
    }

    @Test func rejectsWithTheServicesError() async {
        let service = FakeService()
        let goal = answers.moveGoal(of: service, for: Self.day)
        service.answer(.failure(Unreachable()))
        await #expect(throws: Unreachable.self, "the promise must reject with the service's error") {
            try await goal.value
        }
    }

    // Exercise 2: cancellableMoveGoal(for:)

    @Test func cancellingThePromiseCancelsTheFetch() async throws {
        let service = FakeService()
        let goal = answers.cancellableMoveGoal(of: service, for: Self.day)
        #expect(service.fetches.count == 1, "cancellableMoveGoal must start exactly one fetch")
        #expect(service.fetches.first?.isCancelled == false, "the fetch must not be cancelled before the promise is")
        goal.cancel()
        #expect(
            service.fetches.first?.isCancelled == true,
            "cancelling the promise must cancel the service's fetch (keep its handle; use resolver.onCancel)")
        await #expect(throws: CancellationError.self, "a cancelled promise rejects with CancellationError") {
            try await goal.value
        }
        service.answer(.success(Self.goal))  // a late answer changes nothing
        #expect(goal.isRejected, "a late answer from the service must not change a cancelled promise")
    }

    @Test func cancellingTheAwaitingTaskCancelsTheFetch() async throws {
        let service = FakeService()
        let goal = answers.cancellableMoveGoal(of: service, for: Self.day)
        let task = Task { try await goal.value }
        task.cancel()
        await #expect(throws: CancellationError.self, "cancelling the awaiting task rejects with CancellationError") {
            try await task.value
        }
        #expect(
            service.fetches.first?.isCancelled == true,
            "cancelling a task that awaits the promise must cancel the service's fetch")
    }

    @Test func aFinishedFetchIsNotCancelled() async throws {
        let service = FakeService()
        let goal = answers.cancellableMoveGoal(of: service, for: Self.day)
        service.answer(.success(Self.goal))
        #expect(try await goal.value == Self.goal, "the promise must fulfil with the goal the service answered")
        goal.cancel()
        #expect(service.fetches.first?.isCancelled == false, "a fetch that already finished must not be cancelled")
        #expect(try await goal.value == Self.goal, "cancelling a fulfilled promise must not change its value")
    }
}
