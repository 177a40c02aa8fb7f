import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// Workouts are samples the stores keep: saved, queried by the workout type (sorted, limited, by UUID), deleted,
/// reported as anchored changes, authorized like every shareable type, and — in the durable store — written to the
/// journal and snapshot and read back, next to what a store written by earlier code holds.
struct WorkoutStoreTests {
    /// A run by the app under test (its own source), starting `hours` after noon.
    static func run(hours: Double, uuid: UUID = UUID()) throws -> HealthSample {
        let workout = try HealthWorkoutTests.run(uuid: uuid, start: Fixture.noon.addingTimeInterval(hours * 3600))
        return .workout(try workout.revalidated(source: Fixture.source))
    }

    /// `DurableFixture.withTemporaryDirectory` for an asynchronous body.
    static func withTemporaryDirectory(_ body: (URL) async throws -> Void) async throws {
        let parent = DurableFixture.temporaryPath("workouts")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        try await body(parent.appendingPathComponent("store", isDirectory: true))
    }

    /// Runs `body` with a copy of the store folder `Fixtures/<name>` (see `Fixtures/README.md`).
    static func withCopyOfFixture(_ name: String, _ body: (URL) async throws -> Void) async throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name)", isDirectory: true)
        try await withTemporaryDirectory { directory in
            try FileManager.default.copyItem(at: fixture, to: directory)
            try await body(directory)
        }
    }

    /// The app that wrote the stores under `Fixtures/`.
    static let fixtureApp = HealthAppConfiguration(
        bundleIdentifier: "dev.healthflow.fixture", name: "Fixture", healthShareUsageDescription: "reads",
        healthUpdateUsageDescription: "writes")

    /// UUID number `number` of the stores under `Fixtures/`: `00000000-0000-4000-8000-00000000000N`.
    static func fixtureUUID(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    @Test func inMemoryStoreSavesQueriesSortsLimitsAndDeletesWorkouts() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.workout])
        let runs = try [0.0, 2, 1].map { try Self.run(hours: $0) }
        try await store.save(runs)
        #expect(Set(try await store.samples(of: .workout)) == Set(runs))
        let latest = try await store.samples(of: .workout, sortedBy: [.startDate(ascending: false)], limit: 2)
        #expect(latest == [runs[1], runs[2]])
        let byUUID = try await store.samples(of: .workout, matching: .uuids([runs[0].uuid]))
        #expect(byUUID == [runs[0]])
        #expect(try await store.samples(of: .stepCount).isEmpty, "a workout is no sample of another type")

        let added = try await store.changes(of: .workout, since: nil)
        #expect(Set(added.samples) == Set(runs))
        try await store.delete(runs[0])
        let after = try await store.changes(of: .workout, since: added.newAnchor)
        #expect(after.samples.isEmpty)
        #expect(after.deletedObjects.map(\.uuid) == [runs[0].uuid])
        #expect(Set(try await store.samples(of: .workout)) == [runs[1], runs[2]])
    }

    @Test func savingAWorkoutNeedsSharingAuthorizationForTheWorkoutType() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let error = await storeError { try await store.save(try Self.run(hours: 0)) }
        #expect(error?.code == .authorizationNotDetermined)
        let denied = try await StoreFixture.authorizedStore(
            share: [.workout], policy: .deny(share: [.workout], read: []))
        let refusal = await storeError { try await denied.save(try Self.run(hours: 0)) }
        #expect(refusal?.code == .authorizationDenied)
    }

    @Test func aStoreRefusesASecondWorkoutWithTheSameUUID() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.workout])
        let uuid = UUID()
        try await store.save(try Self.run(hours: 0, uuid: uuid))
        let error = await storeError { try await store.save(try Self.run(hours: 3, uuid: uuid)) }
        #expect(error != nil)
    }

    @Test func durableStoreReadsWorkoutsBackFromItsJournalAndFromASnapshot() async throws {
        try await Self.withTemporaryDirectory { directory in
            let runs = try [0.0, 1, 2].map { try Self.run(hours: $0) }
            do {
                let store = try DurableFixture.open(directory)
                try await store.requestAuthorization(toShare: [.workout], read: [.workout])
                try await store.save(Array(runs[0..<2]))
                store.close()
            }
            do {
                let store = try DurableFixture.open(directory)
                #expect(Set(try await store.samples(of: .workout)) == Set(runs[0..<2]), "from the journal")
                try store.snapshot()
                try await store.save(runs[2])
                try await store.delete(runs[0])
                store.close()
            }
            let store = try DurableFixture.open(directory)
            defer { store.close() }
            #expect(Set(try await store.samples(of: .workout)) == [runs[1], runs[2]], "snapshot, then journal")
            let changes = try await store.changes(of: .workout, since: nil)
            #expect(changes.deletedObjects.map(\.uuid) == [runs[0].uuid])
        }
    }

    @Test func sampleCodecRoundTripsAWorkoutAndRefusesUnknownFieldBits() throws {
        let sample = try Self.run(hours: 0)
        var writer = BinaryWriter()
        SampleCodec.encode(sample, into: &writer)
        let bytes = writer.bytes
        var reader = BinaryReader(bytes, range: bytes.indices)
        var decoder = SampleDecoder()
        #expect(try decoder.sample(from: &reader) == sample)
        #expect(bytes[0] == 5, "workouts take the next sample kind; kinds 1–4 keep their meaning")

        var plain = BinaryWriter()
        SampleCodec.encode(
            .workout(
                try HealthWorkout(activityType: .yoga, start: Fixture.noon, end: Fixture.noon, source: Fixture.source)),
            into: &plain)
        var damaged = plain.bytes
        // The totals' presence byte comes just before the three empty counts (events, activities, statistics).
        #expect(damaged.suffix(4) == [0, 0, 0, 0])
        damaged[damaged.count - 4] = 0x20
        var damagedReader = BinaryReader(damaged, range: damaged.indices)
        var damagedDecoder = SampleDecoder()
        #expect(throws: BinaryReader.Failure.self) { try damagedDecoder.sample(from: &damagedReader) }
    }

    /// `Fixtures/StoreWrittenBeforeWorkouts` was written by main's code before workouts existed (a quantity sample,
    /// a category sample, a blood pressure, an ECG with four voltages, a snapshot, then a journal with a save and a
    /// deletion): it opens with every sample as it was, and takes workouts from then on.
    @Test func aStoreWrittenBeforeWorkoutsExistedOpensAndTakesWorkouts() async throws {
        try await Self.withCopyOfFixture("StoreWrittenBeforeWorkouts") { directory in
            let app = Self.fixtureApp
            let uuid = Self.fixtureUUID
            let run = try HealthWorkout(
                activityType: .running, start: Fixture.noon, end: Fixture.noon.addingTimeInterval(600),
                source: app.source)
            do {
                let store = try DurableFixture.open(directory, configuration: app)
                #expect(try await store.samples(of: .stepCount).map(\.uuid) == [uuid(7)])
                #expect(try await store.samples(of: .sleepAnalysis).map(\.uuid) == [uuid(2)])
                #expect(try await store.samples(of: .bloodPressureSystolic).map(\.uuid) == [uuid(4)])
                let ecg = try await store.samples(of: .electrocardiogram)
                #expect(ecg.map(\.uuid) == [uuid(6)])
                if case .electrocardiogram(let recording)? = ecg.first {
                    let voltages = ElectrocardiogramVoltageStoreTests.streamed(recording, from: store).measurements
                    #expect(voltages.map(\.microvolts) == [0.5, 10.5, 20.5, 30.5])
                }
                let deleted = try await store.changes(of: .stepCount, since: nil).deletedObjects
                #expect(deleted.map(\.uuid) == [uuid(1)])
                try await store.requestAuthorization(toShare: [.workout], read: [.workout])
                try await store.save(.workout(run))
                store.close()
            }
            let store = try DurableFixture.open(directory, configuration: app)
            defer { store.close() }
            #expect(try await store.samples(of: .workout) == [.workout(run)])
            #expect(try await store.samples(of: .stepCount).map(\.uuid) == [uuid(7)])
        }
    }
}
