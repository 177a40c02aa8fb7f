import ActivityRingsExample
import Exercises
import FlowKit
import Foundation
import HealthFlow
import Testing

@Suite struct ExerciseActivityRingsTests {
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
        let goal = service.moveGoal(for: Self.day)
        #expect(service.days == [Self.day])
        #expect(goal.isPending)
        service.answer(.success(Self.goal))
        #expect(try await goal.value == Self.goal)
        #expect(service.fetches.count == 1)
    }

    @Test func rejectsWithTheServicesError() async {
        let service = FakeService()
        let goal = service.moveGoal(for: Self.day)
        service.answer(.failure(Unreachable()))
        await #expect(throws: Unreachable.self) { try await goal.value }
    }

    // Exercise 2: cancellableMoveGoal(for:)

    @Test func cancellingThePromiseCancelsTheFetch() async throws {
        let service = FakeService()
        let goal = service.cancellableMoveGoal(for: Self.day)
        #expect(service.fetches.count == 1)
        #expect(service.fetches.first?.isCancelled == false)
        goal.cancel()
        #expect(service.fetches.first?.isCancelled == true)
        await #expect(throws: CancellationError.self) { try await goal.value }
        service.answer(.success(Self.goal))  // a late answer changes nothing
        #expect(goal.isRejected)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheFetch() async throws {
        let service = FakeService()
        let goal = service.cancellableMoveGoal(for: Self.day)
        let task = Task { try await goal.value }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(service.fetches.first?.isCancelled == true)
    }

    @Test func aFinishedFetchIsNotCancelled() async throws {
        let service = FakeService()
        let goal = service.cancellableMoveGoal(for: Self.day)
        service.answer(.success(Self.goal))
        #expect(try await goal.value == Self.goal)
        goal.cancel()
        #expect(service.fetches.first?.isCancelled == false)
        #expect(try await goal.value == Self.goal)
    }
}
