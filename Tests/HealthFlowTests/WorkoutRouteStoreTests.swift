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

    @Test func routesAddedToAStoredWorkoutFollowTheRoutesItHolds() async throws {
        let store = StoreFixture.store(executor: .immediate)
        try await store.requestAuthorization(toShare: [], read: [.workout])
        let recording = try Self.recording()
        let bare = try Self.recording(hours: 2)
        try store.ingest([recording])
        try store.ingest([.workout(bare.workout)])
        let later = try Self.route(count: 4, start: recording.workout.startDate.addingTimeInterval(1200))
        try store.addRoutes([later], to: recording.workout)
        try store.addRoutes(bare.routes, to: bare.workout)
        try store.addRoutes([], to: bare.workout)
        #expect(try await store.workoutRoutes(of: recording.workout) == recording.routes + [later])
        #expect(try await store.workoutRoutes(of: bare.workout) == bare.routes)
    }

    @Test func routesAddedToAStoredWorkoutAnnounceItAgainToAnchoredQueriesWithoutRewritingHistory() async throws {
        let store = StoreFixture.store(executor: .immediate)
        try await store.requestAuthorization(toShare: [], read: [.workout])
        let recording = try Self.recording()
        let other = try Self.recording(hours: 2)
        try store.ingest([.workout(recording.workout), .workout(other.workout)])
        let first = try await store.changes(of: .workout, since: nil)
        #expect(first.samples.map(\.uuid) == [recording.workout.uuid, other.workout.uuid])
        let checkpoint = store.historyCheckpoint()

        try store.addRoutes(recording.routes, to: recording.workout)
        let again = try await store.changes(of: .workout, since: first.newAnchor)
        #expect(again.samples == [.workout(recording.workout)] && again.deletedObjects.isEmpty)
        #expect(store.mismatch(with: checkpoint) == nil, "the history up to the earlier change is unchanged")
        #expect(try await store.samples(of: .workout).map(\.uuid) == [recording.workout.uuid, other.workout.uuid])
        let fromStart = try await store.changes(of: .workout, since: nil)
        #expect(fromStart.samples.map(\.uuid) == [other.workout.uuid, recording.workout.uuid], "each once")
        #expect(try await store.changes(of: .workout, since: again.newAnchor).samples.isEmpty)
    }

    @Test func routesForAWorkoutTheStoreDoesNotHoldAreRefusedAndNothingChanges() throws {
        let store = StoreFixture.store(executor: .immediate)
        let recording = try Self.recording()
        let sequence = store.lastChangeSequence
        #expect(throws: HealthStoreError.objectNotFound(recording.workout.uuid)) {
            try store.addRoutes(recording.routes, to: recording.workout)
        }
        let steps = try StoreFixture.sample()
        try store.ingest([steps])
        let impostor = try HealthWorkout(
            activityType: .running, start: Fixture.noon, end: Fixture.noon.addingTimeInterval(60),
            source: Fixture.watch, uuid: steps.uuid)
        #expect(throws: HealthStoreError.objectNotFound(steps.uuid), "a UUID of a sample that is not a workout") {
            try store.addRoutes(recording.routes, to: impostor)
        }
        #expect(store.lastChangeSequence == sequence + 1, "only the ingest changed the store")
    }

    /// Adding the missing routes compares with what the store keeps, even where the app may not read workouts:
    /// only the routes the workout lacks are added (one change), and adding them again changes nothing.
    @Test func missingRoutesAreAddedOnceByWhatTheStoreKeepsEvenWhenReadingIsDenied() throws {
        let store = StoreFixture.store(
            policy: AuthorizationPolicy { $0.granting(exceptRead: [.workout]) }, executor: .immediate)
        let recording = try Self.recording()
        let held = try #require(recording.routes.first)
        try store.ingest([.workout(recording.workout)])
        try store.addRoutes([held], to: recording.workout)
        let sequence = store.lastChangeSequence

        let added = try store.addMissingRoutes(recording.routes, to: recording.workout)

        #expect(added == Array(recording.routes.dropFirst()), "the route held is left out")
        #expect(store.lastChangeSequence == sequence + 1)
        #expect(try store.addMissingRoutes(recording.routes, to: recording.workout).isEmpty)
        #expect(try store.addMissingRoutes([], to: recording.workout).isEmpty)
        #expect(store.lastChangeSequence == sequence + 1, "adding them again changes nothing")
        #expect(store.image.series[recording.workout.uuid] == .routes(recording.routes))
        let unknown = try HealthWorkout(
            activityType: .running, start: Fixture.noon, end: Fixture.noon.addingTimeInterval(60),
            source: Fixture.watch)
        #expect(throws: HealthStoreError.objectNotFound(unknown.uuid)) {
            try store.addMissingRoutes(recording.routes, to: unknown)
        }
    }

    /// In the durable store the routes added survive a reopen, and adding them again after it writes nothing.
    @Test func missingRoutesAddedToADurableStoreSurviveReopeningAndAreNotAddedAgain() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let recording = try Self.recording()
            let store = try DurableFixture.open(directory)
            try store.ingest([.workout(recording.workout)])
            #expect(try store.addMissingRoutes(recording.routes, to: recording.workout) == recording.routes)
            store.close()

            let reopened = try DurableFixture.open(directory)
            defer { reopened.close() }
            #expect(reopened.image.series[recording.workout.uuid] == .routes(recording.routes))
            let sequence = reopened.image.sequence
            #expect(try reopened.addMissingRoutes(recording.routes, to: recording.workout).isEmpty)
            #expect(reopened.image.sequence == sequence, "nothing was written")
        }
    }

    @Test func routesAddedToAStoredWorkoutSurviveReplayAndSnapshot() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let recording = try Self.recording()
            let later = try Self.route(count: 2, start: recording.workout.startDate.addingTimeInterval(1500))
            let store = try DurableFixture.open(directory)
            try store.ingest([.workout(recording.workout)])
            try store.addRoutes(recording.routes, to: recording.workout)
            store.close()

            let replayed = try DurableFixture.open(directory)
            #expect(replayed.recovery.replayedRecords == 2, "the ingest and the added routes")
            #expect(replayed.image.series[recording.workout.uuid] == .routes(recording.routes))
            try replayed.addRoutes([later], to: recording.workout)
            let replayedState = StateDump(replayed.image)
            try replayed.snapshot()
            replayed.close()

            let restored = try DurableFixture.open(directory)
            #expect(restored.image.series[recording.workout.uuid] == .routes(recording.routes + [later]))
            #expect(restored.image.sequence == 3, "the ingest, then each addition announcing the workout again")
            #expect(StateDump(restored.image) == replayedState, "the snapshot holds what the journal rebuilt")
            restored.close()
        }
    }

    /// Both addition records: this version's, which announces the workout again, and the one written before.
    @Test(arguments: [true, false])
    func aJournalThatAddsRoutesToNoStoredWorkoutIsDamageTheRepairSkips(announces: Bool) throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let recording = try Self.recording()
            let store = try DurableFixture.open(directory)
            try store.ingest([try StoreFixture.sample()])
            store.close()
            let (kind, payload) = MutationCodec.encode(
                .addSeries(recording.workout.uuid, .routes(recording.routes), announces: announces))
            #expect(kind == (announces ? .announcedRoutes : .addedRoutes))
            var record: [UInt8] = []
            RecordFrame.append(kind: kind, payload: payload, to: &record)
            let journal = try FileHandle(
                forWritingTo: directory.appendingPathComponent(StoreLayout.journalName(0)))
            try journal.seekToEnd()
            try journal.write(contentsOf: record)
            try journal.close()

            #expect(throws: FileStoreError.self) { try DurableFixture.open(directory) }
            let repaired = try DurableFixture.open(directory, recovery: .repair)
            #expect(repaired.recovery.repairs.count == 1)
            #expect(repaired.image.locations.count == 1 && repaired.image.series.isEmpty)
            repaired.close()
        }
    }

    /// A store main's code wrote when added routes kept their workout's sequence number (`Fixtures/README.md`): its
    /// journal record of kind 7 replays as written, so the sample saved after it keeps its number (an anchor a sync
    /// saved still points where it did), and routes added now announce the workout again.
    @Test func routesAddedBeforeAdditionsAnnouncedTheirWorkoutReplayWithTheSequenceNumbersTheyHad() async throws {
        try await WorkoutStoreTests.withCopyOfFixture("StoreWithAddedRoutes") { directory in
            let uuid = WorkoutStoreTests.fixtureUUID
            let store = try DurableFixture.open(directory, configuration: WorkoutStoreTests.fixtureApp)
            defer { store.close() }
            #expect(store.recovery.replayedRecords == 3)
            #expect(store.lastChangeSequence == 2, "the workout (1) and the step count saved after the routes (2)")
            try await store.requestAuthorization(toShare: [], read: [.workout, .stepCount])
            let workouts = try await store.samples(of: .workout)
            #expect(workouts.map(\.uuid) == [uuid(1)])
            let routes = try await SeriesKind.routes.read(workouts[0], from: store)
            guard case .routes(let kept) = routes else {
                Issue.record("no routes: \(String(describing: routes))")
                return
            }
            #expect(kept.map(\.locations.count) == [3])
            #expect(kept.first?.locations[2].latitude == 52.5 + 2.0 / 1000)
            let anchor = try HealthQueryAnchor.decoded(sequence: 1)
            #expect(try await store.changes(of: .stepCount, since: anchor).samples.map(\.uuid) == [uuid(2)])
            #expect(try await store.changes(of: .workout, since: anchor).samples.isEmpty)

            guard case .workout(let run) = workouts[0] else { return }
            try store.addRoutes(kept, to: run)
            #expect(store.lastChangeSequence == 3)
            let again = try await store.changes(of: .workout, since: try HealthQueryAnchor.decoded(sequence: 2))
            #expect(again.samples.map(\.uuid) == [uuid(1)])
        }
    }
}

extension HealthQueryAnchor {
    /// The anchor at `sequence`, as an app that saved it would read it back.
    static func decoded(sequence: UInt64) throws -> HealthQueryAnchor {
        try JSONDecoder().decode(HealthQueryAnchor.self, from: Data("\(sequence)".utf8))
    }
}
