import FlowKit
import Foundation
import Testing

@testable import HealthFlow

extension BackedHealthStore: RecordingIngesting where Backend: HealthSeriesStoreBackend {}

/// ``SegmentedHealthStoreBackend`` keeps series beside samples (an ECG's voltages, a workout's routes, a
/// heartbeat series' beats): in its memtables, its log and its segments' series blocks, through flushes,
/// merges and reopening.
struct SegmentedSeriesTests {
    typealias Backend = SegmentedHealthStoreBackendTests

    static func store(_ backend: SegmentedHealthStoreBackend) -> BackedHealthStore<SegmentedHealthStoreBackend> {
        BackedHealthStore(backend: backend, configuration: StoreFixture.app, callbackExecutor: .immediate)
    }

    static func readable(_ kind: SeriesKind, _ backend: SegmentedHealthStoreBackend) async throws
        -> BackedHealthStore<SegmentedHealthStoreBackend>
    {
        let store = store(backend)
        try await store.requestAuthorization(toShare: [], read: [kind.sampleType])
        return store
    }

    /// The changes to `type` after `anchor`, from a store whose handlers run at once (``FlowExecutor/immediate``).
    static func changes(
        of type: HealthObjectType, after anchor: HealthQueryAnchor?,
        in store: BackedHealthStore<SegmentedHealthStoreBackend>
    ) throws -> HealthAnchoredChanges {
        let page = LockedState<HealthAnchoredChanges?>(nil)
        store.execute(
            HealthAnchoredObjectQuery(type: type, predicate: nil, anchor: anchor) { _, added, deleted, next, _ in
                if let next {
                    page.withLock {
                        $0 = HealthAnchoredChanges(samples: added ?? [], deletedObjects: deleted ?? [], newAnchor: next)
                    }
                }
            })
        return try #require(page.withLock { $0 })
    }

    @Test(arguments: SeriesKind.allCases)
    func seriesReadBackFromMemtablesSegmentsMergesAndTheLogAfterReopening(_ kind: SeriesKind) async throws {
        let directory = DurableFixture.temporaryPath("segmented-series-\(kind)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Three rows a memtable and merges of three segments: eleven batches flush, merge and leave two in memory.
        let recordings = try (0..<11).map { try kind.recording(hours: Double($0)) }
        let backend = try Backend.open(directory)
        let store = try await Self.readable(kind, backend)
        for recording in recordings { try kind.ingest([recording], into: store) }
        #expect(backend.memtableCounts[kind.sampleType] == 2)
        #expect((1..<3).contains(backend.segmentCounts[kind.sampleType] ?? 0), "merged: not one segment per flush")
        for recording in recordings {
            #expect(try await kind.read(recording.sample, from: store) == recording.series)
        }
        backend.close()

        let reopened = try Backend.open(directory)
        #expect(reopened.recovery.replayedChanges > 0, "the memtables' rows come back from the log")
        let again = try await Self.readable(kind, reopened)
        for recording in recordings {
            #expect(try await kind.read(recording.sample, from: again) == recording.series)
        }
        try reopened.checkpoint()
        #expect(reopened.memtableCounts[kind.sampleType] == 0)
        for recording in recordings {
            #expect(try await kind.read(recording.sample, from: again) == recording.series)
        }
        #expect(try await again.samples(of: kind.sampleType) == recordings.samples)
        #expect(reopened.failure == nil)
        reopened.close()
    }

    @Test(arguments: SeriesKind.allCases)
    func aSampleDeletedOrKeptWithoutItsSeriesReadsNone(_ kind: SeriesKind) async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            var backend = try Backend.open(directory)
            let store = try await Self.readable(kind, backend)
            let kept = try kind.recording()
            let bare = try kind.recording(hours: 1)
            try kind.ingest([kept], into: store)
            try store.ingest([bare.sample])
            try backend.checkpoint()
            #expect(try await kind.read(bare.sample, from: store) == kind.none)
            try backend.delete([kept.sample])
            #expect(try await kind.read(kept.sample, from: store) == kind.none)
            #expect(backend.series(ofSampleWith: kept.sample.uuid) == nil)
            backend.close()
        }
    }

    @Test func routesAddedToAStoredWorkoutAreANewVersionThatAnchoredQueriesReportAgain() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            let backend = try Backend.open(directory)
            let store = try await Self.readable(.routes, backend)
            let recording = try SeriesKind.routes.recording()
            guard case .workout(let workout) = recording.sample, case .routes(let routes) = recording.series else {
                preconditionFailure("a workout recording")
            }
            try store.ingest([WorkoutRecording(workout: workout, routes: [routes[0]])])
            try backend.checkpoint()
            let before = try Self.changes(of: .workout, after: nil, in: store)
            #expect(before.samples == [.workout(workout)])

            #expect(try store.addMissingRoutes(routes, to: workout) == [routes[1]])
            #expect(try store.addMissingRoutes(routes, to: workout) == [], "held by value: nothing added twice")
            #expect(try await store.workoutRoutes(of: workout) == routes)
            let after = try Self.changes(of: .workout, after: before.newAnchor, in: store)
            #expect(after.samples == [.workout(workout)], "the addition announces the workout again")
            #expect(try await store.samples(of: .workout) == [.workout(workout)], "one workout, its newest version")
            backend.close()

            let reopened = try Backend.open(directory)
            let again = try await Self.readable(.routes, reopened)
            #expect(try await again.workoutRoutes(of: workout) == routes)
            try reopened.checkpoint()
            let extra = try WorkoutRouteStoreTests.route(count: 2, start: workout.startDate.addingTimeInterval(60))
            try again.addRoutes([extra], to: workout)
            #expect(try await again.workoutRoutes(of: workout) == routes + [extra])
            #expect(reopened.lastSequence == 3)
            reopened.close()
        }
    }

    /// Flips a bit `offset` bytes into the first ECG segment's first block — the series of its first row, written as
    /// the row was appended, right after the magic; returns the segment's name, file and bytes now.
    static func damageFirstSeriesBlock(in directory: URL, at offset: Int) throws -> (String, URL, Data) {
        let name = SegmentName(type: .electrocardiogram, first: 1, last: 1).fileName
        let file = directory.appendingPathComponent(name)
        var bytes = try Data(contentsOf: file)
        bytes[SegmentFormat.magic.count + offset] ^= 0x40
        try bytes.write(to: file)
        return (name, file, bytes)
    }

    @Test func aDamagedSeriesBlockIsReportedAndItsSampleStillReads() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            let recording = try SeriesKind.voltages.recording()
            do {
                let backend = try Backend.open(directory)
                try SeriesKind.voltages.ingest([recording], into: Self.store(backend))
                try backend.checkpoint()
                backend.close()
            }
            let (name, file, bytes) = try Self.damageFirstSeriesBlock(in: directory, at: 10)

            var backend = try Backend.open(directory)
            let store = try await Self.readable(.voltages, backend)
            #expect(try await store.samples(of: .electrocardiogram) == [recording.sample])
            #expect(backend.failure == nil, "opening reads no series")
            #expect(try await SeriesKind.voltages.read(recording.sample, from: store) == SeriesKind.voltages.none)
            #expect(
                backend.failure
                    == .corruptFile(name: name, offset: SegmentFormat.magic.count, problem: .payloadChecksumMismatch))
            #expect(throws: FileStoreError.self) { try backend.insert([]) }
            backend.close()
            #expect(try Data(contentsOf: file) == bytes, "the damaged segment is kept as it is")
        }
    }

    @Test func aMergeThatMeetsADamagedSeriesStopsWithTheDamageAndKeepsEverySegment() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            // One row a memtable: a batch of two ECGs is a segment, the third ECG another, and after reopening the
            // fourth's flush makes a third segment and merges the three.
            let limit = SegmentMemtableLimit(rows: 1, bytes: 1 << 20)
            let recordings = try (0..<4).map { try SeriesKind.voltages.recording(hours: Double($0)) }
            do {
                let backend = try Backend.open(directory, memtableLimit: limit)
                try SeriesKind.voltages.ingest(Array(recordings.prefix(2)), into: Self.store(backend))
                #expect(backend.segmentCounts[.electrocardiogram] == 1, "a batch of two is one flush")
                try SeriesKind.voltages.ingest([recordings[2]], into: Self.store(backend))
                backend.close()
            }
            let (name, file, bytes) = try Self.damageFirstSeriesBlock(in: directory, at: 3)
            let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()

            var backend = try Backend.open(directory, memtableLimit: limit)
            try backend.insert(
                Backend.objects([recordings[3].sample]), series: [recordings[3].sample.uuid: recordings[3].series])
            #expect(
                backend.failure
                    == .corruptFile(name: name, offset: SegmentFormat.magic.count, problem: .payloadChecksumMismatch))
            #expect(backend.segmentCounts[.electrocardiogram] == 3, "the merge did not replace them")
            #expect(throws: FileStoreError.self) { try backend.insert([]) }
            backend.close()
            let after = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(
                after.filter { !before.contains($0) } == [
                    SegmentName(type: .electrocardiogram, first: 3, last: 3).fileName
                ])
            #expect(try Data(contentsOf: file) == bytes, "the damaged segment is kept as it is")
        }
    }

    @Test func theMemtableCountsTheSeriesItHoldsAndFlushesPastItsBytes() async throws {
        try await WorkoutStoreTests.withTemporaryDirectory { directory in
            // A thirty-second ECG at 512 Hz: 15,360 measurements, ~245 KB encoded.
            let start = Fixture.noon
            let count = 15_360
            let ecg = try HealthElectrocardiogram(
                start: start, end: start.addingTimeInterval(30), classification: .sinusRhythm, averageHeartRate: nil,
                samplingFrequency: HealthQuantity(unit: .hertz(), doubleValue: 512),
                numberOfVoltageMeasurements: count, source: Fixture.watch)
            let voltages = (0..<count).map {
                ElectrocardiogramVoltageMeasurement(timeSinceSampleStart: Double($0) / 512, microvolts: Double($0 % 97))
            }
            let recording = try ElectrocardiogramRecording(electrocardiogram: ecg, voltageMeasurements: voltages)

            let roomy = try Backend.open(
                directory, memtableLimit: SegmentMemtableLimit(rows: 100, bytes: 1 << 20), logLimit: 1 << 20)
            try Self.store(roomy).ingest([recording])
            #expect(roomy.memtableBytes >= 16 * count)
            roomy.close()
            try FileManager.default.removeItem(at: directory)

            let small = try Backend.open(
                directory, memtableLimit: SegmentMemtableLimit(rows: 100, bytes: 64 << 10), logLimit: 1 << 20)
            let store = try await Self.readable(.voltages, small)
            try store.ingest([recording])
            #expect(small.memtableCounts[.electrocardiogram] == 0, "one ECG passes 64 KB: flushed at once")
            #expect(small.segmentCounts[.electrocardiogram] == 1)
            #expect(small.memtableBytes == 0)
            #expect(try await store.voltageMeasurements(of: ecg) == voltages)
            small.close()
        }
    }

    @Test func seriesThatDoNotFitTheirBatchOrSampleAreRefusedBeforeAnythingIsLogged() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            var backend = try Backend.open(directory)
            let ecg = try SeriesKind.voltages.recording()
            let workout = try SeriesKind.routes.recording()
            let steps = try StoreFixture.sample(.stepCount, 10)
            let log = try #require(backend.log)
            #expect(throws: SegmentedBackendError.unexpectedSeries(index: 0)) {
                try backend.insert(Backend.objects([ecg.sample]), series: [ecg.sample.uuid: workout.series])
            }
            #expect(throws: SegmentedBackendError.unexpectedSeries(index: 1)) {
                try backend.insert(Backend.objects([ecg.sample, steps]), series: [ecg.sample.uuid: ecg.series])
            }
            #expect(throws: SegmentedBackendError.unexpectedSeries(index: 1)) {
                try backend.insert(Backend.objects([ecg.sample]), series: [workout.sample.uuid: workout.series])
            }
            #expect(backend.log?.length == log.length)
            #expect(backend.lastSequence == 0)

            try backend.insert(Backend.objects([ecg.sample, workout.sample]), series: [ecg.sample.uuid: ecg.series])
            #expect(backend.series(ofSampleWith: workout.sample.uuid) == nil)
            let length = try #require(backend.log).length
            for (series, uuid) in [
                (workout.series, UUID()), (ecg.series, ecg.sample.uuid), (workout.series, ecg.sample.uuid),
                (SeriesKind.routes.none, workout.sample.uuid),
            ] {
                #expect(throws: SegmentedBackendError.noSampleForSeries(uuid)) {
                    try backend.add(series, toSampleWith: uuid)
                }
            }
            #expect(backend.log?.length == length)
            #expect(backend.lastSequence == 2)
            backend.close()
        }
    }
}
