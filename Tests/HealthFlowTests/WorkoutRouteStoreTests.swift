import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// What is particular to workout routes: the route's checks, and the query with its promise and async twins (what
/// every kind of series shares is in `SampleSeriesStoreTests`).
struct WorkoutRouteStoreTests {
    /// `count` locations a second apart from `start`, heading north-east from Berlin.
    static func route(count: Int = 5, start: Date = Fixture.noon) throws -> HealthWorkoutRoute {
        var locations: [HealthWorkoutRoute.Location] = []
        for index in 0..<count {
            let step = Double(index)
            locations.append(
                HealthWorkoutRoute.Location(
                    timestamp: start.addingTimeInterval(step), latitude: 52.5 + step * 1e-5,
                    longitude: 13.4 + step * 1e-5, altitude: 34 + step / 8, speed: 2.75, course: 45,
                    horizontalAccuracy: 4.5, verticalAccuracy: index == 0 ? -1 : 3))
        }
        return try HealthWorkoutRoute(locations: locations)
    }

    /// A run by `source` with two routes.
    static func recording(hours: Double = 0, source: HealthSource = Fixture.watch) throws -> WorkoutRecording {
        let start = Fixture.noon.addingTimeInterval(hours * 3600)
        let workout = try HealthWorkout(
            activityType: .running, start: start, end: start.addingTimeInterval(1800), source: source)
        return WorkoutRecording(
            workout: workout,
            routes: [try route(start: start), try route(count: 3, start: start.addingTimeInterval(900))])
    }

    @Test func routeRefusesLocationsOutOfRangeNotFiniteOrOutOfTimeOrder() {
        let now = Fixture.noon
        #expect(throws: ValidationError.invalidRouteLocation(index: 0, field: "latitude")) {
            try HealthWorkoutRoute(locations: [HealthWorkoutRoute.Location(timestamp: now, latitude: 91, longitude: 0)])
        }
        #expect(throws: ValidationError.invalidRouteLocation(index: 0, field: "longitude")) {
            try HealthWorkoutRoute(
                locations: [HealthWorkoutRoute.Location(timestamp: now, latitude: 0, longitude: -180.5)])
        }
        #expect(throws: ValidationError.invalidRouteLocation(index: 1, field: "altitude")) {
            try HealthWorkoutRoute(locations: [
                HealthWorkoutRoute.Location(timestamp: now, latitude: 0, longitude: 0),
                HealthWorkoutRoute.Location(timestamp: now, latitude: 0, longitude: 0, altitude: .nan),
            ])
        }
        #expect(throws: ValidationError.invalidRouteLocation(index: 1, field: "timestamp")) {
            try HealthWorkoutRoute(locations: [
                HealthWorkoutRoute.Location(timestamp: now, latitude: 0, longitude: 0),
                HealthWorkoutRoute.Location(timestamp: now.addingTimeInterval(-1), latitude: 0, longitude: 0),
            ])
        }
    }

    @Test func inMemoryStoreGivesIngestedRoutesBackThroughTheQueryAndItsTwins() async throws {
        let store = StoreFixture.store(executor: .immediate)
        try await store.requestAuthorization(toShare: [], read: [.workout])
        let recording = try Self.recording()
        try store.ingest([recording])
        let delivered = LockedState<Result<[HealthWorkoutRoute], any Error>?>(nil)
        store.execute(
            HealthWorkoutRouteQuery(workout: recording.workout) { _, result in delivered.withLock { $0 = result } })
        #expect(try delivered.withLock { $0 }?.get() == recording.routes)
        #expect(try await store.workoutRoutes(of: recording.workout) == recording.routes)
        #expect(try await Promise { try await store.workoutRoutes(of: recording.workout) }.value == recording.routes)
        #expect(try await store.samples(of: .workout) == [.workout(recording.workout)])
    }
}
