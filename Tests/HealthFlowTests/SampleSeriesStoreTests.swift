import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// The kinds of series, as the shared store tests drive them through the public API.
extension SeriesKind {
    /// What the query of the kind is called in an `unsupportedQueryType` error.
    var queryDescription: String {
        switch self {
        case .voltages: "HealthElectrocardiogramQuery(electrocardiogram)"
        case .routes: "HealthWorkoutRouteQuery(workout)"
        case .heartbeats: "HealthHeartbeatSeriesQuery(heartbeatSeries)"
        }
    }

    /// A recording `hours` after noon by `source`, with a series of a few elements.
    func recording(hours: Double = 0, source: HealthSource = Fixture.watch) throws -> SeriesSample {
        let start = Fixture.noon.addingTimeInterval(hours * 3600)
        switch self {
        case .voltages:
            let count = 16 + Int(hours)
            let ecg = try HealthElectrocardiogram(
                start: start, end: start.addingTimeInterval(Double(count) / 512), classification: .sinusRhythm,
                averageHeartRate: nil, samplingFrequency: HealthQuantity(unit: .hertz(), doubleValue: 512),
                numberOfVoltageMeasurements: count, source: source)
            let measurements = (0..<count).map {
                ElectrocardiogramVoltageMeasurement(
                    timeSinceSampleStart: Double($0) / 512, microvolts: Double($0) - 4.5)
            }
            return SeriesSample(sample: .electrocardiogram(ecg), series: .voltages(measurements))
        case .routes:
            let workout = try HealthWorkout(
                activityType: .running, start: start, end: start.addingTimeInterval(1800), source: source)
            let routes = [
                try WorkoutRouteStoreTests.route(start: start),
                try WorkoutRouteStoreTests.route(count: 3, start: start.addingTimeInterval(900)),
            ]
            return SeriesSample(sample: .workout(workout), series: .routes(routes))
        case .heartbeats:
            let count = 8 + Int(hours)
            let series = try HealthHeartbeatSeries(
                start: start, end: start.addingTimeInterval(60), count: count, source: source)
            let beats = (0..<count).map {
                HealthHeartbeat(timeSinceSeriesStart: 11.83 + Double($0) * 0.93, precededByGap: $0 == 3)
            }
            return SeriesSample(sample: .heartbeatSeries(series), series: .heartbeats(beats))
        }
    }

    /// Ingests `entries` through the store's public `ingest(_:)` of the kind's recording type.
    func ingest(_ entries: [SeriesSample], into store: some RecordingIngesting) throws {
        switch self {
        case .voltages:
            try store.ingest(
                entries.map { entry in
                    guard case .electrocardiogram(let ecg) = entry.sample, case .voltages(let voltages) = entry.series
                    else { preconditionFailure("not an ECG recording") }
                    return try ElectrocardiogramRecording(electrocardiogram: ecg, voltageMeasurements: voltages)
                })
        case .routes:
            try store.ingest(
                entries.map { entry in
                    guard case .workout(let workout) = entry.sample, case .routes(let routes) = entry.series else {
                        preconditionFailure("not a workout recording")
                    }
                    return WorkoutRecording(workout: workout, routes: routes)
                })
        case .heartbeats:
            try store.ingest(
                entries.map { entry in
                    guard case .heartbeatSeries(let series) = entry.sample, case .heartbeats(let beats) = entry.series
                    else { preconditionFailure("not a heartbeat series recording") }
                    return try HeartbeatSeriesRecording(series: series, heartbeats: beats)
                })
        }
    }

    /// What the kind's query reads back for `sample` (through its `async` face), as a series.
    func read(_ sample: HealthSample, from store: any HealthStore) async throws -> HealthSampleSeries {
        switch (self, sample) {
        case (.voltages, .electrocardiogram(let ecg)): .voltages(try await store.voltageMeasurements(of: ecg))
        case (.routes, .workout(let workout)): .routes(try await store.workoutRoutes(of: workout))
        case (.heartbeats, .heartbeatSeries(let series)): .heartbeats(try await store.heartbeats(of: series))
        default: preconditionFailure("\(sample.type) is not the sample of \(self)")
        }
    }

    /// The series of the kind holding nothing: what a query reads when no series is kept or shown.
    var none: HealthSampleSeries {
        switch self {
        case .voltages: .voltages([])
        case .routes: .routes([])
        case .heartbeats: .heartbeats([])
        }
    }
}

/// The stores whose `ingest(_:)` keeps recordings of both kinds.
protocol RecordingIngesting {
    func ingest(_ recordings: [ElectrocardiogramRecording]) throws
    func ingest(_ recordings: [WorkoutRecording]) throws
    func ingest(_ recordings: [HeartbeatSeriesRecording]) throws
}

extension InMemoryHealthStore: RecordingIngesting {}
extension FileHealthStore: RecordingIngesting {}

/// The stores keep series data beside a sample — an ECG's voltages, a workout's routes — through one mechanism;
/// these tests hold for every kind.
struct SampleSeriesStoreTests {
    @Test(arguments: SeriesKind.allCases)
    func inMemoryStoreGivesIngestedSeriesBack(_ kind: SeriesKind) async throws {
        let store = StoreFixture.store(executor: .immediate)
        try await store.requestAuthorization(toShare: [], read: [kind.sampleType])
        let recordings = try [kind.recording(), kind.recording(hours: 2)]
        try kind.ingest(recordings, into: store)
        for recording in recordings {
            #expect(try await kind.read(recording.sample, from: store) == recording.series)
        }
        #expect(try await store.samples(of: kind.sampleType) == recordings.samples)
    }

    @Test(arguments: SeriesKind.allCases)
    func readDenialUnknownSamplesAndSamplesKeptWithoutSeriesGiveNone(_ kind: SeriesKind) async throws {
        let denied = StoreFixture.store(policy: .deny(read: [kind.sampleType]))
        try await denied.requestAuthorization(toShare: [], read: [kind.sampleType])
        let recording = try kind.recording()
        try kind.ingest([recording], into: denied)
        #expect(try await kind.read(recording.sample, from: denied) == kind.none)

        let allowed = StoreFixture.store()
        try await allowed.requestAuthorization(toShare: [], read: [kind.sampleType])
        #expect(try await kind.read(recording.sample, from: allowed) == kind.none)
        try allowed.ingest([recording.sample])
        #expect(try await kind.read(recording.sample, from: allowed) == kind.none)
        #expect(allowed.image.series.isEmpty)
    }

    @Test(arguments: SeriesKind.allCases)
    func ingestingARecordingTwiceIsRefusedWhole(_ kind: SeriesKind) throws {
        let store = StoreFixture.store(executor: .immediate)
        let first = try kind.recording()
        try kind.ingest([first], into: store)
        let second = try kind.recording(hours: 1)
        #expect(throws: HealthStoreError.duplicateUUID(first.sample.uuid)) {
            try kind.ingest([second, first], into: store)
        }
        #expect(store.lastChangeSequence == 1)
        #expect(store.image.series.keys.sorted { $0.uuidString < $1.uuidString } == [first.sample.uuid])
    }

    @Test(arguments: SeriesKind.allCases)
    func deletingASampleDropsItsSeries(_ kind: SeriesKind) throws {
        let recordings = try [kind.recording(), kind.recording(hours: 1)]
        var state = StoreState(appBundleIdentifier: StoreFixture.app.bundleIdentifier)
        _ = state.apply(.insertSeries(recordings))
        #expect(state.series.count == 2)
        _ = state.apply(.delete([recordings[0].sample.uuid]))
        #expect(Array(state.series.keys) == [recordings[1].sample.uuid])
        #expect(state.series[recordings[1].sample.uuid] == recordings[1].series)
    }

    @Test(arguments: SeriesKind.allCases)
    func storeWithoutSeriesReportsTheQueryUnsupported(_ kind: SeriesKind) async throws {
        let store = BackedHealthStore(backend: KeepsNothingBackend(), configuration: StoreFixture.app)
        let recording = try kind.recording()
        await #expect(throws: HealthStoreError.unsupportedQueryType(kind.sampleType, query: kind.queryDescription)) {
            try await kind.read(recording.sample, from: store)
        }
    }

    @Test(arguments: SeriesKind.allCases)
    func durableStoreKeepsSeriesThroughJournalReplaySnapshotAndDeletion(_ kind: SeriesKind) async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            let recordings = try [kind.recording(), kind.recording(hours: 2, source: StoreFixture.app.source)]
            do {
                let store = try DurableFixture.open(directory)
                try await store.requestAuthorization(
                    toShare: kind.sampleType.isShareable ? [kind.sampleType] : [], read: [kind.sampleType])
                try kind.ingest(recordings, into: store)
                store.close()
            }
            do {
                let replayed = try DurableFixture.open(directory)
                #expect(replayed.recovery.snapshotGeneration == nil)
                for recording in recordings {
                    #expect(try await kind.read(recording.sample, from: replayed) == recording.series)
                }
                try replayed.snapshot()
                replayed.close()
            }
            let restored = try DurableFixture.open(directory)
            #expect(restored.recovery.snapshotGeneration != nil)
            for recording in recordings {
                #expect(try await kind.read(recording.sample, from: restored) == recording.series)
            }
            #expect(restored.image.series.count == 2)
            // An app deletes only samples of types it may share (ECGs it may not): `deletingASampleDropsItsSeries`
            // covers the rule for every kind; here a deletion goes through the journal too.
            guard kind.sampleType.isShareable else { return restored.close() }
            try await restored.delete(recordings[1].sample)
            restored.close()
            let reopened = try DurableFixture.open(directory)
            defer { reopened.close() }
            #expect(try await kind.read(recordings[1].sample, from: reopened) == kind.none)
            #expect(try await kind.read(recordings[0].sample, from: reopened) == recordings[0].series)
        }
    }

    @Test(arguments: SeriesKind.allCases)
    func journalRecordsOfABatchOfRecordingsMergeIntoOneChange(_ kind: SeriesKind) throws {
        let recordings = try [kind.recording(), kind.recording(hours: 1)]
        let parts = MutationCodec.encodeRecords(.insertSeries(recordings))
        let expectedKind = kind.journalRecord
        #expect(parts.map(\.kind) == [expectedKind, expectedKind])
        #expect([RecordKind.recording, .workoutRecording, .heartbeatRecording].map(\.rawValue) == [5, 6, 8])
        var decoder = SampleDecoder()
        let decoded = try parts.map { part in
            var reader = BinaryReader(part.payload, range: 0..<part.payload.count)
            return try MutationCodec.decode(kind: part.kind, from: &reader, samples: &decoder)
        }
        #expect(MutationCodec.merge(decoded) == .insertSeries(recordings))
    }

    @Test(arguments: SeriesKind.allCases)
    func ingestingNoRecordingsLeavesAJournalThatReplays(_ kind: SeriesKind) throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let store = try DurableFixture.open(directory)
            try kind.ingest([], into: store)
            let recording = try kind.recording()
            try kind.ingest([recording], into: store)
            store.close()
            let reopened = try DurableFixture.open(directory)
            defer { reopened.close() }
            #expect(reopened.recovery.tornTail == nil)
            #expect(reopened.image.series == [recording.sample.uuid: recording.series])
        }
    }

    @Test(arguments: SeriesKind.allCases)
    func snapshotWithSeriesOfNoStoredSampleIsRefusedAsInconsistent(_ kind: SeriesKind) throws {
        let stray = try kind.recording()
        let problem = try Self.snapshotProblem { storeID in
            StoreState(
                appBundleIdentifier: StoreFixture.app.bundleIdentifier, storeID: storeID,
                authorization: AuthorizationTable(), indexes: [], slots: [:], locations: UUIDTable(),
                correlations: UUIDTable(), sequence: 0, series: [stray.sample.uuid: stray.series])
        }
        #expect(problem == .inconsistent(Self.notStored(kind)))
    }

    @Test(arguments: SeriesKind.allCases)
    func snapshotWithSeriesBesideASampleOfAnotherTypeIsRefusedAsInconsistent(_ kind: SeriesKind) throws {
        let other = try SeriesKind.allCases.first { $0 != kind }!.recording()
        let stray = try kind.recording()
        var state = StoreState(appBundleIdentifier: StoreFixture.app.bundleIdentifier)
        _ = state.apply(.insert([other.sample]))
        let problem = try Self.snapshotProblem { storeID in
            StoreState(
                appBundleIdentifier: StoreFixture.app.bundleIdentifier, storeID: storeID,
                authorization: AuthorizationTable(), indexes: state.indexes, slots: state.slots,
                locations: state.locations, correlations: UUIDTable(), sequence: state.sequence,
                series: [other.sample.uuid: stray.series])
        }
        #expect(problem == .inconsistent(Self.notStored(kind)))
    }

    /// The damage a snapshot reader reports for series of `kind` whose sample is not stored, spelled out per kind.
    static func notStored(_ kind: SeriesKind) -> String {
        switch kind {
        case .voltages: "voltages of an ECG that is not stored"
        case .routes: "routes of a workout that is not stored"
        case .heartbeats: "heartbeats of a heartbeat series that is not stored"
        }
    }

    /// A store main's code wrote before the two kinds shared one mechanism (see `Fixtures/README.md`): ECG
    /// voltages in journal records of kind 5 and snapshot records of kind 21, workout routes in kinds 6 and 22.
    @Test func aStoreWrittenBeforeSeriesSharedOneMechanismOpensWithEveryVoltageAndRoute() async throws {
        try await WorkoutStoreTests.withCopyOfFixture("StoreWithRecordings") { directory in
            let app = WorkoutStoreTests.fixtureApp
            let uuid = WorkoutStoreTests.fixtureUUID
            func check(_ store: FileHealthStore) async throws {
                try await store.requestAuthorization(toShare: [], read: [.electrocardiogram, .workout])
                let ecgs = try await store.samples(of: .electrocardiogram)
                #expect(ecgs.map(\.uuid) == [uuid(1), uuid(4), uuid(6)])
                let voltages = try await ecgs.asyncMap { try await SeriesKind.voltages.read($0, from: store) }
                #expect(voltages == [[0.5, 10.5, 20.5, 30.5], [-1.25, 2.5, -3.75], [7.5]].map(Self.at512Hertz))
                let workouts = try await store.samples(of: .workout)
                #expect(workouts.map(\.uuid) == [uuid(2), uuid(3), uuid(5), uuid(7)])
                let routes = try await workouts.asyncMap { try await SeriesKind.routes.read($0, from: store) }
                let locations = routes.map { series -> [Int] in
                    guard case .routes(let routes) = series else { return [] }
                    return routes.map(\.locations.count)
                }
                #expect(locations == [[3, 2], [], [2], []])
                if case .routes(let first) = routes[0] {
                    #expect(first[0].locations[1].latitude == 52.5 + 1.0 / 1000)
                    #expect(first[0].locations[0].verticalAccuracy == -1)
                    #expect(first[1].locations[0].timestamp == Fixture.noon.addingTimeInterval(900))
                }
                #expect(store.image.series.count == 5)
            }
            do {
                let store = try DurableFixture.open(directory, configuration: app)
                #expect(store.recovery.snapshotGeneration == 1)
                #expect(store.recovery.tornTail == nil)
                try await check(store)
                try store.snapshot()
                store.close()
            }
            let store = try DurableFixture.open(directory, configuration: app)
            defer { store.close() }
            try await check(store)
        }
    }

    /// The series records of main's fixture store are what this code writes for the same data, byte for byte: each
    /// journal record (kinds 5 and 6) decodes and encodes again to its bytes, and a snapshot taken after opening the
    /// store holds main's snapshot records (kinds 21 and 22) unchanged.
    @Test func seriesRecordsAreWrittenByteForByteAsMainWroteThem() async throws {
        try await WorkoutStoreTests.withCopyOfFixture("StoreWithRecordings") { directory in
            let journal = try Self.records(in: directory.appendingPathComponent("journal-0000000000000001.hfj"))
            let written = journal.filter { SeriesKind(journalRecord: $0.kind) != nil }
            #expect(written.map(\.kind) == [.recording, .recording, .workoutRecording, .workoutRecording])
            for record in written {
                var reader = BinaryReader(record.payload, range: 0..<record.payload.count)
                var decoder = SampleDecoder()
                let mutation = try MutationCodec.decode(kind: record.kind, from: &reader, samples: &decoder)
                let again = MutationCodec.encodeRecords(mutation)
                #expect(again.map(\.kind) == [record.kind])
                #expect(again.first?.payload == record.payload)
            }
            let mainSnapshot = try Self.records(in: directory.appendingPathComponent("snapshot-0000000000000001.hfs"))
            let store = try DurableFixture.open(directory, configuration: WorkoutStoreTests.fixtureApp)
            try store.snapshot()
            store.close()
            let newest = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasPrefix("snapshot-") }.sorted().last
            let snapshot = try Self.records(in: directory.appendingPathComponent(try #require(newest)))
            func series(_ records: [(kind: RecordKind, payload: [UInt8])]) -> [[UInt8]] {
                records.filter { SeriesKind(snapshotRecord: $0.kind) != nil }.map(\.payload)
            }
            #expect(series(mainSnapshot).count == 2)
            #expect(series(snapshot).count == 5)
            #expect(Set(series(mainSnapshot)).isSubset(of: Set(series(snapshot))))
        }
    }

    /// The records of the journal or snapshot file at `url`, after its 8-byte magic.
    private static func records(in url: URL) throws -> [(kind: RecordKind, payload: [UInt8])] {
        let scanner = FrameScanner(bytes: [UInt8](try Data(contentsOf: url)))
        var records: [(kind: RecordKind, payload: [UInt8])] = []
        var offset = 8
        while case .record(let kind, let payload, let next, _) = scanner.scan(at: offset) {
            records.append((kind, Array(scanner.bytes[payload])))
            offset = next
        }
        guard case .end = scanner.scan(at: offset) else {
            Issue.record("\(url.lastPathComponent) does not end cleanly after \(records.count) records")
            return records
        }
        return records
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

    /// Voltages as the fixture wrote them: `microvolts`, one every 1/512 s.
    private static func at512Hertz(_ microvolts: [Double]) -> HealthSampleSeries {
        .voltages(
            microvolts.enumerated().map {
                ElectrocardiogramVoltageMeasurement(
                    timeSinceSampleStart: Double($0.offset) / 512, microvolts: $0.element)
            })
    }
}

extension Array {
    /// `transform` of each element, in order.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}

/// A backend that keeps nothing: a store whose series queries fall back to the protocol's default.
private struct KeepsNothingBackend: HealthStoreBackend {
    var lastSequence: UInt64 { 0 }
    func sample(withUUID uuid: UUID) -> StoredHealthSample? { nil }
    func samples(of type: HealthObjectType, matching predicate: SamplePredicate?) -> [HealthSample] { [] }
    func changes(of type: HealthObjectType, after sequence: UInt64, limit: Int) -> [HealthStoreChange] { [] }
    mutating func insert(_ objects: [StoredHealthSample]) throws {}
    mutating func delete(_ objects: [HealthSample]) throws {}
}
