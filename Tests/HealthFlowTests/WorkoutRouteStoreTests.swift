import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// The stores keep a workout's routes beside it, as they keep an ECG's voltages, and give them back through
/// `HealthWorkoutRouteQuery` and its promise and async twins — after a reopen and a snapshot too.
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

    @Test func readDenialUnknownWorkoutsAndWorkoutsWithoutRoutesGiveNoRoutes() async throws {
        let denied = StoreFixture.store(policy: .deny(read: [.workout]))
        try await denied.requestAuthorization(toShare: [], read: [.workout])
        let recording = try Self.recording()
        try denied.ingest([recording])
        #expect(try await denied.workoutRoutes(of: recording.workout) == [])

        let allowed = StoreFixture.store()
        try await allowed.requestAuthorization(toShare: [], read: [.workout])
        #expect(try await allowed.workoutRoutes(of: recording.workout) == [])
        try allowed.ingest([.workout(recording.workout)])
        #expect(try await allowed.workoutRoutes(of: recording.workout) == [])
    }

    @Test func deletingAWorkoutDropsItsRoutes() async throws {
        let store = StoreFixture.store()
        try await store.requestAuthorization(toShare: [.workout], read: [.workout])
        let recording = try Self.recording(source: Fixture.source)
        try store.ingest([recording])
        try await store.delete(.workout(recording.workout))
        #expect(try await store.workoutRoutes(of: recording.workout) == [])
        #expect(store.image.routes.isEmpty)
    }

    @Test func storeWithoutRoutesReportsTheQueryUnsupported() async throws {
        let store = BackedHealthStore(backend: NoRoutesBackend(), configuration: StoreFixture.app)
        let recording = try Self.recording()
        await #expect(
            throws: HealthStoreError.unsupportedQueryType(.workout, query: "HealthWorkoutRouteQuery(workout)")
        ) {
            try await store.workoutRoutes(of: recording.workout)
        }
    }

    @Test func durableStoreKeepsRoutesThroughJournalReplaySnapshotAndDeletion() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            let recordings = try [Self.recording(), Self.recording(hours: 2, source: StoreFixture.app.source)]
            do {
                let store = try DurableFixture.open(directory)
                try await store.requestAuthorization(toShare: [.workout], read: [.workout])
                try store.ingest(recordings)
                store.close()
            }
            do {
                let replayed = try DurableFixture.open(directory)
                #expect(replayed.recovery.snapshotGeneration == nil)
                for recording in recordings {
                    #expect(try await replayed.workoutRoutes(of: recording.workout) == recording.routes)
                }
                try replayed.snapshot()
                replayed.close()
            }
            do {
                let restored = try DurableFixture.open(directory)
                #expect(restored.recovery.snapshotGeneration != nil)
                for recording in recordings {
                    #expect(try await restored.workoutRoutes(of: recording.workout) == recording.routes)
                }
                #expect(restored.image.routes.count == 2)
                try await restored.delete(.workout(recordings[1].workout))
                restored.close()
            }
            let reopened = try DurableFixture.open(directory)
            defer { reopened.close() }
            #expect(try await reopened.workoutRoutes(of: recordings[1].workout) == [])
            #expect(try await reopened.workoutRoutes(of: recordings[0].workout) == recordings[0].routes)
        }
    }

    @Test func journalRecordsOfABatchOfWorkoutRecordingsMergeIntoOneChange() throws {
        let recordings = try [Self.recording(), Self.recording(hours: 1)]
        let parts = MutationCodec.encodeRecords(.insertWorkoutRecordings(recordings))
        #expect(parts.map(\.kind) == [.workoutRecording, .workoutRecording])
        var decoder = SampleDecoder()
        let decoded = try parts.map { part in
            var reader = BinaryReader(part.payload, range: 0..<part.payload.count)
            return try MutationCodec.decode(kind: part.kind, from: &reader, samples: &decoder)
        }
        #expect(MutationCodec.merge(decoded) == .insertWorkoutRecordings(recordings))
    }

    @Test func snapshotWithRoutesOfNoStoredWorkoutIsRefusedAsInconsistent() throws {
        let stray = try Self.recording()
        let problem = try Self.snapshotProblem { storeID in
            StoreState(
                appBundleIdentifier: StoreFixture.app.bundleIdentifier, storeID: storeID,
                authorization: AuthorizationTable(), indexes: [], slots: [:], locations: UUIDTable(),
                correlations: UUIDTable(), sequence: 0, routes: [stray.workout.uuid: stray.routes])
        }
        #expect(problem == .inconsistent("routes of a workout that is not stored"))
    }

    /// The damage reading back a snapshot of `state` reports (`nil`, recording an issue, when it reads).
    static func snapshotProblem(_ state: (UUID) -> StoreState) throws -> FileStoreError.Damage? {
        try DurableFixture.withTemporaryDirectory { directory in
            let fileSystem = PosixFileSystem()
            let path = FileSystemPath(directory.path)
            try fileSystem.makeDirectory(at: path)
            try SnapshotWriter(fileSystem: fileSystem, directory: path).write(StoreImage(state(UUID())), generation: 1)
            let reader = SnapshotReader(
                fileSystem: fileSystem, directory: path, appBundleIdentifier: StoreFixture.app.bundleIdentifier)
            do throws(FileStoreError) {
                _ = try reader.read(generation: 1, legacyStoreID: UUID())
                Issue.record("a snapshot with stray data was read")
                return nil
            } catch {
                guard case .corruptFile(_, _, let problem) = error else { throw error }
                return problem
            }
        }
    }
}

/// A backend that keeps nothing: enough for a store whose route queries fall back to the protocol's default.
private struct NoRoutesBackend: HealthStoreBackend {
    var lastSequence: UInt64 { 0 }
    func sample(withUUID uuid: UUID) -> StoredHealthSample? { nil }
    func samples(of type: HealthObjectType, matching predicate: SamplePredicate?) -> [HealthSample] { [] }
    func changes(of type: HealthObjectType, after sequence: UInt64) -> [HealthStoreChange] { [] }
    mutating func insert(_ objects: [StoredHealthSample]) throws {}
    mutating func delete(_ objects: [HealthSample]) throws {}
}
