import FlowKit
import Foundation
import StoreConformance
import Testing

@testable import HealthFlow

/// ``SegmentedHealthStoreBackend``: HealthKit's behaviour through ``BackedHealthStore``, durability across
/// reopening and crashes, and memory bounded by the memtables.
struct SegmentedHealthStoreBackendTests {
    /// Small enough that a handful of samples spans memtables, segments and log rotations.
    static let tinyMemtable = SegmentMemtableLimit(rows: 3, bytes: 1 << 20)

    static func open(
        _ directory: URL, fileSystem: any StoreFileSystem = PosixFileSystem(),
        memtableLimit: SegmentMemtableLimit = tinyMemtable,
        memtableBudget: Int = SegmentedHealthStoreBackend.standardMemtableBudget, logLimit: Int = 4_096,
        compactionFanout: Int = 3
    ) throws -> SegmentedHealthStoreBackend {
        try SegmentedHealthStoreBackend(
            directory: FileSystemPath(directory), fileSystem: fileSystem, memtableLimit: memtableLimit,
            memtableBudget: memtableBudget, logLimit: logLimit, compactionFanout: compactionFanout)
    }

    /// A step of a workload against the backend directly, as ``BackedHealthStore`` calls it.
    enum Change {
        case insert([HealthSample], series: [UUID: HealthSampleSeries] = [:])
        case delete([HealthSample])
        case addSeries(HealthSampleSeries, to: UUID)
    }

    /// Heart rates, step counts and blood pressures inserted in batches, ECGs with their voltages and workouts
    /// with their routes in batches of their own, some samples deleted (a correlation deleted with its members)
    /// and routes added to live workouts, from a seed.
    static func workload(seed: UInt64, batches: Int) throws -> [Change] {
        var generator = SeededGenerator(seed: seed)
        var live: [HealthSample] = []
        var changes: [Change] = []
        for batch in 0..<batches {
            if batch % 4 == 3, !live.isEmpty {
                let doomed = live.remove(at: Int.random(in: 0..<live.count, using: &generator))
                changes.append(.delete([doomed]))
                continue
            }
            let workouts = live.filter { $0.type == .workout }
            if batch % 6 == 5, let workout = workouts.randomElement(using: &generator) {
                let start = workout.startDate.addingTimeInterval(Double(Int.random(in: 0..<600, using: &generator)))
                let route = try WorkoutRouteStoreTests.route(
                    count: Int.random(in: 1...4, using: &generator), start: start)
                changes.append(.addSeries(.routes([route]), to: workout.uuid))
                continue
            }
            if Int.random(in: 0..<4, using: &generator) == 0 {
                let kind: SeriesKind = Bool.random(using: &generator) ? .voltages : .routes
                var series: [UUID: HealthSampleSeries] = [:]
                var samples: [HealthSample] = []
                for _ in 0..<Int.random(in: 1...2, using: &generator) {
                    let recording = try kind.recording(
                        hours: Double(Int.random(in: 0..<24, using: &generator)), source: Fixture.watch)
                    samples.append(recording.sample)
                    series[recording.sample.uuid] = recording.series
                }
                live += samples
                changes.append(.insert(samples, series: series))
                continue
            }
            var samples: [HealthSample] = []
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let start = Fixture.noon + Double(Int.random(in: 0..<86_400, using: &generator))
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    samples.append(
                        try StoreFixture.sample(
                            .heartRate, Double(Int.random(in: 40...180, using: &generator)), unit: "count/min",
                            start: start, uuid: UUID.random(using: &generator)))
                case 1:
                    samples.append(
                        try StoreFixture.sample(
                            .stepCount, Double(Int.random(in: 1...500, using: &generator)), start: start,
                            duration: 60, uuid: UUID.random(using: &generator)))
                default:
                    samples.append(try StoreFixture.bloodPressure(at: start))
                }
            }
            live += samples
            changes.append(.insert(samples))
        }
        return changes
    }

    /// The objects ``BackedHealthStore`` hands the backend for `samples`: each followed by its members.
    static func objects(_ samples: [HealthSample]) -> [StoredHealthSample] {
        samples.flatMap { sample in
            HealthSaveRules.flattened(sample).enumerated().map {
                StoredHealthSample(sample: $0.element, correlation: $0.offset == 0 ? nil : sample.uuid)
            }
        }
    }

    static func apply(_ change: Change, to backend: inout SegmentedHealthStoreBackend) throws {
        switch change {
        case .insert(let samples, let series): try backend.insert(objects(samples), series: series)
        case .delete(let samples): try backend.delete(samples.flatMap(HealthSaveRules.flattened))
        case .addSeries(let series, let uuid): try backend.add(series, toSampleWith: uuid)
        }
    }

    static let types: [HealthObjectType] = [
        .heartRate, .stepCount, .bloodPressureSystolic, .bloodPressureDiastolic,
        .bloodPressure, .electrocardiogram, .workout,
    ]

    /// Everything a backend answers, for comparing two.
    struct Answers: Equatable {
        var lastSequence: UInt64
        var samples: [[UUID]]
        var changes: [[String]]
        var members: [UUID: UUID]
        var series: [UUID: HealthSampleSeries]
        /// The history's fingerprint through the last change (``SegmentedHistoryTests``).
        var fingerprint: UInt64?

        init(_ backend: SegmentedHealthStoreBackend, uuids: [UUID]) {
            lastSequence = backend.lastSequence
            samples = SegmentedHealthStoreBackendTests.types.map { backend.samples(of: $0, matching: nil).map(\.uuid) }
            changes = SegmentedHealthStoreBackendTests.types.map {
                backend.changes(of: $0, after: 0, limit: .max).map {
                    "\($0.sequence) \($0.sample.uuid) \($0.isDeletion)"
                }
            }
            fingerprint = backend.historyFingerprint(through: backend.lastSequence)
            members = [:]
            series = [:]
            for uuid in uuids {
                if let stored = backend.sample(withUUID: uuid) { members[uuid] = stored.correlation ?? uuid }
                series[uuid] = backend.series(ofSampleWith: uuid)
            }
        }
    }

    /// Whether `changes` insert a sample with its series and add a series to a stored one.
    static func keepSeries(_ changes: [Change]) -> Bool {
        let inserts = changes.contains {
            if case .insert(_, let series) = $0 { !series.isEmpty } else { false }
        }
        let additions = changes.contains {
            if case .addSeries = $0 { true } else { false }
        }
        return inserts && additions
    }

    static func allUUIDs(_ changes: [Change]) -> [UUID] {
        changes.flatMap { change -> [UUID] in
            switch change {
            case .insert(let samples, _), .delete(let samples): samples.flatMap(HealthSaveRules.flattened).map(\.uuid)
            case .addSeries: []
            }
        }
    }

    // MARK: HealthKit's behaviour

    static func segmentedSubject(_ directory: URL) throws -> ConformanceSubject {
        let app = HealthAppConfiguration(
            bundleIdentifier: "com.example.segments", name: "Segments",
            healthShareUsageDescription: "Reads your data.", healthUpdateUsageDescription: "Writes your data.")
        let store = BackedHealthStore(
            backend: try open(directory), configuration: app, policy: HealthStoreConformance.policy)
        return ConformanceSubject(name: "segmented store", store: store, app: app, ingest: { try store.ingest($0) })
    }

    @Test func segmentedStoreAnswersTheConformanceSessionExactlyLikeTheInMemoryStore() async throws {
        let directory = DurableFixture.temporaryPath("segmented-conformance")
        defer { try? FileManager.default.removeItem(at: directory) }
        let subject = try Self.segmentedSubject(directory)
        let reference = try await HealthStoreConformance.transcript(of: .inMemory(app: subject.app))
        let segmented = try await HealthStoreConformance.transcript(of: subject)
        #expect(HealthStoreConformance.ruleViolations(in: segmented) == [])
        #expect(reference.count == segmented.count)
        for (expected, actual) in zip(reference, segmented) {
            #expect(expected == actual)
        }
    }

    @Test func deletingACorrelationThroughTheStoreDeletesItsMembers() async throws {
        let directory = DurableFixture.temporaryPath("segmented-correlation")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            // A copy of the backend shares its state: it reads what the store wrote.
            let backend = try Self.open(directory)
            let store = BackedHealthStore(
                backend: backend, configuration: StoreFixture.app, callbackExecutor: .immediate)
            try await store.requestAuthorization(
                toShare: [.bloodPressureSystolic, .bloodPressureDiastolic],
                read: [.bloodPressureSystolic, .bloodPressureDiastolic])
            let reading = try StoreFixture.bloodPressure()
            try await store.save([reading])
            #expect(backend.sample(withUUID: HealthSaveRules.flattened(reading)[1].uuid)?.correlation == reading.uuid)
            try await store.delete([reading])
            let left = [HealthObjectType.bloodPressureSystolic, .bloodPressureDiastolic, .bloodPressure].flatMap {
                backend.samples(of: $0, matching: nil)
            }
            #expect(left.isEmpty)
            let deletions = backend.changes(of: .bloodPressureSystolic, after: 0, limit: .max).filter(\.isDeletion)
            #expect(deletions.count == 1)
        }
    }

    // MARK: Durability

    @Test func reopenedBackendAnswersExactlyAsBeforeClosing() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let changes = try Self.workload(seed: 7, batches: 60)
            let keepsSeries = Self.keepSeries(changes)
            #expect(keepsSeries)
            var backend = try Self.open(directory)
            for change in changes { try Self.apply(change, to: &backend) }
            let uuids = Self.allUUIDs(changes)
            let before = Answers(backend, uuids: uuids)
            // Some changes are only in memtables and the log, some in segments.
            #expect(backend.memtableCounts.values.contains { $0 > 0 })
            #expect(backend.segmentCounts.values.contains { $0 > 0 })
            backend.close()
            let reopened = try Self.open(directory)
            #expect(reopened.recovery.tornTail == nil)
            #expect(reopened.recovery.replayedChanges > 0)
            #expect(Answers(reopened, uuids: uuids) == before)
            reopened.close()
        }
    }

    /// When the store's filter of held UUIDs (``HeldKeyFilter``) is built: by the first uniqueness question, which
    /// may come before any change, in the middle of them, after all of them, or only after reopening.
    enum FilterBuilt: CaseIterable {
        case beforeTheChanges, midway, afterTheChanges, afterReopening
    }

    /// The batch question the store asks before saving answers as one look-up per UUID does: for UUIDs live and
    /// deleted in memtables and in segments (correlation members included), unknown ones, and a UUID deleted as a
    /// heart rate (its deletion in a segment) and then stored as a step count — whenever the filter of held UUIDs
    /// was built, so keys reach it both by the build and by each insertion after it.
    @Test(arguments: FilterBuilt.allCases)
    func storedUUIDsOfABatchAreThoseEachLookUpFinds(_ built: FilterBuilt) throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let changes = try Self.workload(seed: 11, batches: 80)
            var backend = try Self.open(directory)
            let unknown = (0..<50).map { _ in UUID() }
            if built == .beforeTheChanges { #expect(backend.storedUUIDs(among: unknown).isEmpty) }
            for (index, change) in changes.enumerated() {
                try Self.apply(change, to: &backend)
                if built == .midway, index == changes.count / 2 { _ = backend.storedUUIDs(among: unknown) }
            }
            let reused = UUID()
            let heartRate = try StoreFixture.sample(
                .heartRate, 60, unit: "count/min", start: Fixture.noon, uuid: reused)
            try backend.insert(Self.objects([heartRate]))
            try backend.delete([heartRate])
            try backend.checkpoint()
            let steps = try StoreFixture.sample(.stepCount, 12, start: Fixture.noon, duration: 60, uuid: reused)
            try backend.insert(Self.objects([steps]))
            if built == .afterReopening {
                backend.close()
                backend = try Self.open(directory)
            }
            #expect(backend.memtableCounts.values.contains { $0 > 0 })
            #expect(backend.segmentCounts.values.contains { $0 > 0 })
            let uuids = Self.allUUIDs(changes) + [reused] + unknown
            let oneByOne = Set(uuids.filter { backend.sample(withUUID: $0) != nil })
            #expect(oneByOne.contains(reused))
            #expect(oneByOne.count < Set(Self.allUUIDs(changes)).count)
            #expect(backend.storedUUIDs(among: uuids) == oneByOne)
            #expect(backend.storedUUIDs(among: []).isEmpty)
            backend.close()
        }
    }

    @Test func tieredCompactionKeepsFewSegmentsAndTheSameAnswers() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let changes = try Self.workload(seed: 5, batches: 200)
            let keepsSeries = Self.keepSeries(changes)
            #expect(keepsSeries)
            let uuids = Self.allUUIDs(changes)
            var compacted = try Self.open(directory)
            for change in changes { try Self.apply(change, to: &compacted) }
            let answers = Answers(compacted, uuids: uuids)
            // 3 segments per size class at most, and a few classes: far fewer than one per flush.
            let segments = compacted.segmentCounts.values.max() ?? 0
            #expect(segments <= 3 * 4)
            compacted.close()
            let uncompacted = try DurableFixture.withTemporaryDirectory { other in
                var backend = try Self.open(other, compactionFanout: .max)
                defer { backend.close() }
                for change in changes { try Self.apply(change, to: &backend) }
                #expect((backend.segmentCounts.values.max() ?? 0) > 2 * segments)
                return Answers(backend, uuids: uuids)
            }
            #expect(answers == uncompacted)
            let reopened = try Self.open(directory)
            #expect(Answers(reopened, uuids: uuids) == answers)
            reopened.close()
        }
    }

    /// A batch of three heart rates and three step counts: with the tiny memtable, both types flush.
    private static func twoTypeBatch(_ batch: Int) throws -> [HealthSample] {
        try (0..<3).flatMap { index in
            let start = Fixture.noon + Double(batch * 600 + index * 60)
            return [
                try StoreFixture.sample(.heartRate, 60, unit: "count/min", start: start),
                try StoreFixture.sample(.stepCount, 10, start: start, duration: 60),
            ]
        }
    }

    @Test func mergesDueForSeveralTypesAtOnceAreMadeOneTypeAChangeAndAllByACheckpoint() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            var backend = try Self.open(directory)
            defer { backend.close() }
            var inserted: [HealthSample] = []
            func insert(_ samples: [HealthSample]) throws {
                inserted += samples
                try Self.apply(.insert(samples), to: &backend)
            }
            for batch in 0..<3 { try insert(Self.twoTypeBatch(batch)) }
            // The third batch made each type's third segment: both are due, the first named is merged.
            #expect(backend.segmentCounts[.heartRate] == 1)
            #expect(backend.segmentCounts[.stepCount] == 3)
            try insert([try StoreFixture.sample(.bodyMass, 70, unit: "kg")])
            #expect(backend.segmentCounts[.stepCount] == 1)
            // From here the body mass memtable is never empty, so each type's segment is put in place only when its
            // next memtable is sealed: after three more flushes each type has the merged segment, two more in place
            // and one being written, and the merge they are due waits for that one.
            for batch in 3..<6 { try insert(Self.twoTypeBatch(batch)) }
            #expect(backend.segmentCounts[.heartRate] == 4)
            #expect(backend.segmentCounts[.stepCount] == 4)
            try backend.checkpoint()
            #expect(backend.segmentCounts[.heartRate] == 2)
            #expect(backend.segmentCounts[.stepCount] == 2)
            for sample in inserted { #expect(backend.sample(withUUID: sample.uuid)?.sample == sample) }
        }
    }

    @Test func changesAfterReopeningContinueTheSequenceAndSurviveAnotherReopening() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let changes = try Self.workload(seed: 11, batches: 40)
            var backend = try Self.open(directory)
            for change in changes.prefix(20) { try Self.apply(change, to: &backend) }
            let middle = backend.lastSequence
            backend.close()
            backend = try Self.open(directory)
            #expect(backend.lastSequence == middle)
            for change in changes.dropFirst(20) { try Self.apply(change, to: &backend) }
            let uuids = Self.allUUIDs(changes)
            let before = Answers(backend, uuids: uuids)
            backend.close()
            let reopened = try Self.open(directory)
            #expect(Answers(reopened, uuids: uuids) == before)
            reopened.close()
        }
    }

    @Test func theLogIsCutOnceEveryMemtableHoldingItsChangesIsFlushed() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            var backend = try Self.open(directory, memtableLimit: SegmentMemtableLimit(rows: 2, bytes: 1 << 20))
            let first = try #require(backend.log)
            try backend.insert(Self.objects([try StoreFixture.sample(.stepCount, 1)]))
            #expect(backend.log?.generation == first.generation)
            #expect(backend.log!.length > first.length)
            // The second step count fills the memtable: it is flushed, and no memtable holds a logged change.
            try backend.insert(Self.objects([try StoreFixture.sample(.stepCount, 2)]))
            #expect(backend.log?.generation == first.generation + 1)
            #expect(backend.log?.length == first.length)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(names.filter { $0.hasPrefix("segment-log-") } == [SegmentLog.name(first.generation + 1)])
            backend.close()
        }
    }

    @Test func aCutLogReportsItsTornTailAndKeepsEveryEarlierChange() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            // No flush: every change stays in the log.
            let roomy = SegmentMemtableLimit(rows: 1_000, bytes: 1 << 20)
            var backend = try Self.open(directory, memtableLimit: roomy, logLimit: 1 << 20)
            let kept = [try StoreFixture.sample(.stepCount, 1), try StoreFixture.sample(.stepCount, 2)]
            try backend.insert(Self.objects(kept))
            let acknowledged = try #require(backend.log)
            let lost = try StoreFixture.sample(.stepCount, 3)
            try backend.insert(Self.objects([lost]))
            backend.close()
            let path = directory.appendingPathComponent(SegmentLog.name(acknowledged.generation))
            let bytes = try Data(contentsOf: path)
            // The last append reached the disk only in part.
            try bytes.prefix(acknowledged.length + 20).write(to: path)
            var reopened = try Self.open(directory, memtableLimit: roomy, logLimit: 1 << 20)
            let torn = try #require(reopened.recovery.tornTail)
            #expect(torn.offset == acknowledged.length)
            #expect(torn.length == 20)
            #expect(torn.problem == .truncated)
            let keptAs = try #require(torn.keptAs)
            #expect(keptAs.hasPrefix("damaged/" + SegmentLog.name(acknowledged.generation) + ".torn."))
            #expect(
                try Data(contentsOf: directory.appendingPathComponent(keptAs))
                    == bytes[acknowledged.length..<(acknowledged.length + 20)])
            #expect(reopened.samples(of: .stepCount, matching: nil).map(\.uuid) == kept.map(\.uuid))
            #expect(reopened.sample(withUUID: lost.uuid) == nil)
            #expect(reopened.lastSequence == 2)
            #expect(reopened.log?.length == acknowledged.length)
            // The log goes on after the cut.
            let next = try StoreFixture.sample(.stepCount, 4)
            try reopened.insert(Self.objects([next]))
            reopened.close()
            let again = try Self.open(directory, memtableLimit: roomy, logLimit: 1 << 20)
            #expect(again.recovery.tornTail == nil)
            #expect(again.samples(of: .stepCount, matching: nil).map(\.uuid) == (kept + [next]).map(\.uuid))
            #expect(again.lastSequence == 3)
            again.close()
        }
    }

    @Test func damageInsideTheLogIsThrownNotSkipped() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let roomy = SegmentMemtableLimit(rows: 1_000, bytes: 1 << 20)
            var backend = try Self.open(directory, memtableLimit: roomy, logLimit: 1 << 20)
            let start = try #require(backend.log)
            try backend.insert(Self.objects([try StoreFixture.sample(.stepCount, 1)]))
            try backend.insert(Self.objects([try StoreFixture.sample(.stepCount, 2)]))
            backend.close()
            let path = directory.appendingPathComponent(SegmentLog.name(start.generation))
            var bytes = try Data(contentsOf: path)
            // A byte of the first change's payload, with the second change after it.
            bytes[start.length + RecordFrame.headerSize + 3] ^= 0xFF
            try bytes.write(to: path)
            #expect {
                try Self.open(directory, memtableLimit: roomy, logLimit: 1 << 20)
            } throws: { error in
                guard case FileStoreError.corruptFile(let name, let offset, .payloadChecksumMismatch) = error else {
                    return false
                }
                return name == SegmentLog.name(start.generation) && offset == start.length
            }
        }
    }

    @Test func aCrashAtAnyStepLosesNoAcknowledgedChangeAndKeepsEachBatchWholeOrAbsent() throws {
        let changes = try Self.workload(seed: 5, batches: 9)
        let keepsSeries = Self.keepSeries(changes)
        #expect(keepsSeries)
        let uuids = Self.allUUIDs(changes)
        let steps = try DurableFixture.withTemporaryDirectory { directory in
            let faulty = FaultyFileSystem()
            var backend = try Self.open(directory, fileSystem: faulty, logLimit: 1_024)
            for change in changes { try Self.apply(change, to: &backend) }
            backend.close()
            return faulty.steps
        }
        // The steps include flushed segments and log rotations.
        #expect(steps.contains { $0.name.hasPrefix(SegmentName.prefix) && $0.name.hasSuffix(SegmentName.suffix) })
        #expect(Set(steps.map(\.name).filter { SegmentLog.generation(in: $0) != nil }).count > 1)
        // What the store answers after the first n changes, for every n.
        let expected = try (0...changes.count).map { count in
            try DurableFixture.withTemporaryDirectory { reference in
                var backend = try Self.open(reference, logLimit: 1_024)
                defer { backend.close() }
                for change in changes.prefix(count) { try Self.apply(change, to: &backend) }
                return Answers(backend, uuids: uuids)
            }
        }
        for (position, taken) in steps.enumerated() {
            let step = position + 1
            // A write keeps 7 bytes or all of them before the crash; other steps do nothing.
            for keeping in taken.operation == "write" ? [7, nil] : [7] as [Int?] {
                try DurableFixture.withTemporaryDirectory { directory in
                    let faulty = FaultyFileSystem(.crash(at: step, keeping: keeping))
                    var acknowledged = 0
                    if var backend = try? Self.open(directory, fileSystem: faulty, logLimit: 1_024) {
                        for change in changes {
                            guard (try? Self.apply(change, to: &backend)) != nil else { break }
                            acknowledged += 1
                        }
                        backend.close()
                    }
                    let reopened = try Self.open(directory, logLimit: 1_024)
                    defer { reopened.close() }
                    let answers = Answers(reopened, uuids: uuids)
                    // The store after the acknowledged changes, or after one more (logged before the crash).
                    let candidates = [expected[acknowledged], expected[min(acknowledged + 1, changes.count)]]
                    #expect(
                        candidates.contains(answers), "crash at step \(step) keeping \(String(describing: keeping))")
                }
            }
        }
    }

    @Test func aFailedLogWriteRefusesItsBatchAndTheNextBatchGoesOn() throws {
        let roomy = SegmentMemtableLimit(rows: 1_000, bytes: 1 << 20)
        let samples = try (1...3).map { try StoreFixture.sample(.stepCount, Double($0)) }
        // The steps up to the first batch's; the second batch's log write comes next, then its flush.
        let before = try DurableFixture.withTemporaryDirectory { directory in
            let faulty = FaultyFileSystem()
            var backend = try Self.open(directory, fileSystem: faulty, memtableLimit: roomy, logLimit: 1 << 20)
            try backend.insert(Self.objects([samples[0]]))
            let count = faulty.steps.count
            try backend.insert(Self.objects([samples[1]]))
            #expect(faulty.steps.dropFirst(count).map(\.operation) == ["write", "fsync"])
            backend.close()
            return count
        }
        try DurableFixture.withTemporaryDirectory { directory in
            let faulty = FaultyFileSystem(.fail(at: before + 1, keeping: 5))
            var backend = try Self.open(directory, fileSystem: faulty, memtableLimit: roomy, logLimit: 1 << 20)
            try backend.insert(Self.objects([samples[0]]))
            #expect(throws: FileStoreError.self) { try backend.insert(Self.objects([samples[1]])) }
            #expect(backend.lastSequence == 1)
            #expect(backend.sample(withUUID: samples[1].uuid) == nil)
            try backend.insert(Self.objects([samples[2]]))
            backend.close()
            let reopened = try Self.open(directory, memtableLimit: roomy, logLimit: 1 << 20)
            #expect(reopened.recovery.tornTail == nil)
            #expect(reopened.samples(of: .stepCount, matching: nil).map(\.uuid) == [samples[0].uuid, samples[2].uuid])
            reopened.close()
        }
        try DurableFixture.withTemporaryDirectory { directory in
            // A failed flush leaves the log's tail in doubt: every later change is refused.
            let faulty = FaultyFileSystem(.fail(at: before + 2, keeping: nil))
            var backend = try Self.open(directory, fileSystem: faulty, memtableLimit: roomy, logLimit: 1 << 20)
            try backend.insert(Self.objects([samples[0]]))
            #expect(throws: FileStoreError.self) { try backend.insert(Self.objects([samples[1]])) }
            #expect {
                try backend.insert(Self.objects([samples[2]]))
            } throws: { error in
                guard case FileStoreError.unusable = error else { return false }
                return true
            }
            backend.close()
            let reopened = try Self.open(directory, memtableLimit: roomy, logLimit: 1 << 20)
            #expect(reopened.sample(withUUID: samples[0].uuid) != nil)
            #expect(reopened.sample(withUUID: samples[2].uuid) == nil)
            reopened.close()
        }
    }

    // MARK: Memory

    @Test func fiftyThousandSamplesKeepNoMemoryPerSampleBeyondTheMemtables() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let limit = SegmentMemtableLimit(rows: 4_096, bytes: 1 << 20)
            var backend = try Self.open(directory, memtableLimit: limit, logLimit: 8 << 20)
            var generator = SeededGenerator(seed: 50)
            let total = 50_000
            for batch in 0..<(total / 1_000) {
                let samples = try (0..<1_000).map { index in
                    try StoreFixture.sample(
                        index % 2 == 0 ? .heartRate : .stepCount, Double(index % 180 + 1),
                        unit: index % 2 == 0 ? "count/min" : "count",
                        start: Fixture.noon + Double(batch * 1_000 + index) * 60, uuid: UUID.random(using: &generator))
                }
                try backend.insert(Self.objects(samples))
            }
            #expect(backend.lastSequence == UInt64(total))
            let memtableBytes = backend.memtableBytes
            let segments = backend.segmentCounts.values.reduce(0, +)
            let beyondMemtables = backend.residentBytes - memtableBytes
            // Per segment: its block index and Bloom filter (about 2 bytes a row) and a fixed overhead; a sample's
            // own encoding is about 100 bytes.
            #expect(beyondMemtables <= total * 3 + segments * (SegmentedTypeStorage.segmentOverhead + 4_096))
            #expect(memtableBytes <= 2 * limit.bytes)
            #expect(backend.log!.length <= 8 << 20)
            #expect(backend.samples(of: .stepCount, matching: nil).count == total / 2)
            backend.close()
        }
    }

    @Test func manyTypesTogetherKeepTheirMemtablesWithinTheBudget() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            // Each memtable alone could hold 1,000 rows; the budget holds about 400 rows of all types together.
            let budget = 64 << 10
            let roomy = SegmentMemtableLimit(rows: 1_000, bytes: 1 << 20)
            let types: [(HealthObjectType, String)] = [
                (.heartRate, "count/min"), (.stepCount, "count"), (.flightsClimbed, "count"),
                (.activeEnergyBurned, "kcal"), (.basalEnergyBurned, "kcal"), (.distanceWalkingRunning, "m"),
                (.bodyMass, "kg"), (.respiratoryRate, "count/min"),
            ]
            var backend = try Self.open(
                directory, memtableLimit: roomy, memtableBudget: budget, logLimit: 8 << 20, compactionFanout: 4)
            var generator = SeededGenerator(seed: 60)
            var peak = 0
            for batch in 0..<20 {
                let samples = try types.flatMap { type, unit in
                    try (0..<50).map { index in
                        try StoreFixture.sample(
                            type, Double(index + 1), unit: unit,
                            start: Fixture.noon + Double(batch * 50 + index) * 60, uuid: UUID.random(using: &generator))
                    }
                }
                try backend.insert(Self.objects(samples))
                peak = max(peak, backend.memtableBytes)
            }
            #expect(peak <= budget, "memtables held \(peak) bytes")
            #expect(backend.failure == nil)
            for (type, _) in types { #expect(backend.samples(of: type, matching: nil).count == 1_000) }
            backend.close()
            let reopened = try Self.open(directory, memtableLimit: roomy, memtableBudget: budget)
            for (type, _) in types { #expect(reopened.samples(of: type, matching: nil).count == 1_000) }
            reopened.close()
        }
    }

    // MARK: Refusals

    @Test func aMemberOutOfPlaceIsRefusedBeforeAnythingIsLogged() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            var backend = try Self.open(directory)
            let reading = try StoreFixture.bloodPressure()
            let objects = Self.objects([reading])
            let log = try #require(backend.log)
            #expect(throws: SegmentedBackendError.unexpectedMember(index: 0)) {
                try backend.insert(Array(objects.dropFirst()))
            }
            #expect(throws: SegmentedBackendError.unexpectedMember(index: 2)) {
                try backend.insert(Array(objects.prefix(2)))
            }
            #expect(backend.log?.length == log.length)
            #expect(backend.lastSequence == 0)
            backend.close()
        }
    }

    @Test func aSecondBackendOnTheSameDirectoryIsRefused() throws {
        try DurableFixture.withTemporaryDirectory { directory in
            let backend = try Self.open(directory)
            #expect(throws: FileStoreError.self) { try Self.open(directory) }
            backend.close()
        }
    }
}
