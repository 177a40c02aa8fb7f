import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// Directories, workloads and state comparisons for the durable store tests.
enum DurableFixture {
    /// A fresh path under the temporary directory (not created: the store creates it, 0700).
    static func temporaryPath(_ label: String = "store") -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("healthflow-\(label)-\(UUID().uuidString)", isDirectory: true)
    }

    /// Runs `body` with a fresh store path and removes everything under it afterwards.
    static func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) rethrows -> Result {
        let parent = temporaryPath("test")
        try? FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        return try body(parent.appendingPathComponent("store", isDirectory: true))
    }

    /// The policy of every durable test: everything allowed except sharing body mass and reading heart rate.
    static let policy = AuthorizationPolicy.deny(share: [.bodyMass], read: [.heartRate])

    static func open(
        _ directory: URL, fileSystem: any StoreFileSystem = PosixFileSystem(), limit: Int = 64 << 20,
        configuration: HealthAppConfiguration = StoreFixture.app, recovery: FileStoreRecoveryMode = .tolerateTornTail
    ) throws(FileStoreError) -> FileHealthStore {
        try FileHealthStore(
            directory: directory, configuration: configuration, policy: policy,
            characteristics: HealthCharacteristics(),
            callbackExecutor: .immediate, isHealthDataAvailable: true,
            options: FileStoreOptions(journalSizeLimit: limit, recovery: recovery),
            fileSystem: fileSystem)
    }

    static func reference() -> InMemoryHealthStore {
        InMemoryHealthStore(configuration: StoreFixture.app, policy: policy, callbackExecutor: .immediate)
    }

    // MARK: Workloads

    /// One step of a workload.
    enum Operation: Sendable {
        case authorize(share: Set<HealthObjectType>, read: Set<HealthObjectType>)
        case save([HealthSample])
        case ingest([HealthSample])
        case delete([HealthSample])
        case snapshot
    }

    /// Runs `operation` on a store whose callbacks run immediately; returns whether it was acknowledged.
    @discardableResult
    static func perform(_ operation: Operation, on store: FileHealthStore) -> Bool {
        attempt(operation, on: store) == nil
    }

    /// Runs `operation`; its error, or `nil` when it was acknowledged.
    static func attempt(_ operation: Operation, on store: FileHealthStore) -> (any Error)? {
        switch operation {
        case .authorize(let share, let read):
            return failure { store.requestAuthorization(toShare: share, read: read, completion: $0) }
        case .save(let samples):
            return failure { store.save(samples, withCompletion: $0) }
        case .delete(let samples):
            return failure { store.delete(samples, withCompletion: $0) }
        case .ingest(let samples):
            do {
                try store.ingest(samples)
                return nil
            } catch {
                return error
            }
        case .snapshot:
            do throws(FileStoreError) {
                try store.snapshot()
                return nil
            } catch {
                return error
            }
        }
    }

    /// The steps that change the disk while `operations` run on a fresh store (what fault tests walk through).
    static func diskSteps(of operations: [Operation]) throws -> [FaultyFileSystem.Step] {
        let counting = FaultyFileSystem()
        try withTemporaryDirectory { directory in
            let store = try open(directory, fileSystem: counting)
            for operation in operations { perform(operation, on: store) }
            store.close()
        }
        return counting.steps
    }

    /// The same on the in-memory reference (a snapshot does nothing there).
    @discardableResult
    static func perform(_ operation: Operation, on store: InMemoryHealthStore) -> Bool {
        switch operation {
        case .authorize(let share, let read):
            return outcome { store.requestAuthorization(toShare: share, read: read, completion: $0) }
        case .save(let samples):
            return outcome { store.save(samples, withCompletion: $0) }
        case .ingest(let samples):
            return (try? store.ingest(samples)) != nil
        case .delete(let samples):
            return outcome { store.delete(samples, withCompletion: $0) }
        case .snapshot:
            return true
        }
    }

    /// The success flag a `(Bool, Error?)` completion reported synchronously (`.immediate` executor).
    static func outcome(_ body: (@escaping @Sendable (Bool, (any Error)?) -> Void) -> Void) -> Bool {
        let result = LockedState<Bool?>(nil)
        body { success, _ in result.withLock { $0 = success } }
        let value = result.withLock { $0 }
        #expect(value != nil, "the completion ran synchronously")
        return value ?? false
    }

    /// The error a `(Bool, Error?)` completion reported synchronously.
    static func failure(_ body: (@escaping @Sendable (Bool, (any Error)?) -> Void) -> Void) -> (any Error)? {
        let result = LockedState<(any Error)?>(nil)
        body { _, error in result.withLock { $0 = error } }
        return result.withLock { $0 }
    }

    /// A varied workload: authorization (with a denial), the app's quantity, category and correlation
    /// samples with metadata, another source's samples and an ECG, deletions (a correlation among them) that
    /// leave tombstones, refused changes, and — where `snapshots` — snapshots in between.
    static func workload(seed: UInt64, snapshots: Bool = true) throws -> [Operation] {
        var random = SeededGenerator(seed: seed)
        let app = Fixture.source
        let watch = Fixture.watch
        func start(_ minutes: Int) -> Date { Fixture.noon.addingTimeInterval(Double(minutes) * 60) }
        func uuid() -> UUID { UUID.random(using: &random) }

        var steps: [HealthSample] = []
        for index in 0..<6 {
            steps.append(
                .quantity(
                    try HealthQuantitySample(
                        type: .stepCount, quantity: try Fixture.quantity(Double(100 + index), "count"),
                        start: start(index * 10), end: start(index * 10 + 5), source: app, uuid: uuid())))
        }
        let insulin = HealthSample.quantity(
            try HealthQuantitySample(
                type: .insulinDelivery, quantity: try Fixture.quantity(4, "IU"), date: start(3), source: app,
                metadata: [
                    .insulinDeliveryReason: InsulinDeliveryReason.bolus.metadataValue,
                    .syncIdentifier: "dose-1", .syncVersion: 2, "Note": "with lunch",
                    "When": .date(start(2)),
                    "Glucose": .quantity(try Fixture.quantity(5.5, "mmol<180.15588000005408>/L")),
                ], uuid: uuid()))
        let sleep = HealthSample.category(
            try HealthCategorySample(
                type: .sleepAnalysis, value: 3, start: start(-480), end: start(-60), source: app, uuid: uuid()))
        let pressure = HealthSample.correlation(
            try HealthCorrelation(
                type: .bloodPressure, start: start(7), end: start(7),
                objects: [
                    try HealthQuantitySample(
                        type: .bloodPressureSystolic, quantity: try Fixture.quantity(121, "mmHg"), date: start(7),
                        source: app, uuid: uuid()),
                    try HealthQuantitySample(
                        type: .bloodPressureDiastolic, quantity: try Fixture.quantity(79, "mmHg"), date: start(7),
                        source: app, uuid: uuid()),
                ], source: app, metadata: [.wasUserEntered: true], uuid: uuid()))
        let heart = try (0..<4).map { index in
            HealthSample.quantity(
                try HealthQuantitySample(
                    type: .heartRate, quantity: try Fixture.quantity(Double(60 + index), "count/min"),
                    start: start(index), end: start(index) + 30, source: watch, uuid: uuid()))
        }
        let ecg = HealthSample.electrocardiogram(
            try HealthElectrocardiogram(
                start: start(20), end: start(20) + 30, classification: .sinusRhythm, symptomsStatus: .none,
                averageHeartRate: try Fixture.quantity(70, "count/min"),
                samplingFrequency: try Fixture.quantity(512, "Hz"),
                numberOfVoltageMeasurements: 15_360, source: watch, uuid: uuid()))
        let weight = HealthSample.quantity(
            try HealthQuantitySample(
                type: .bodyMass, quantity: try Fixture.quantity(70, "kg"), date: start(1), source: app, uuid: uuid()))

        var operations: [Operation] = [
            .authorize(
                share: [.stepCount, .insulinDelivery, .sleepAnalysis, .bloodPressureSystolic, .bodyMass],
                read: [.stepCount, .heartRate, .electrocardiogram, .bloodPressureSystolic]),
            .save([steps[0]]),
            .save([steps[1], steps[2], insulin]),
            .ingest(Array(heart[0..<2])),
            .save([weight]),  // refused: sharing body mass denied
            .save([sleep, pressure]),
        ]
        if snapshots { operations.append(.snapshot) }
        operations += [
            .delete([steps[1]]),
            .ingest([ecg, heart[2]]),
            .delete([pressure, insulin]),
            .save([steps[3]]),
            .delete([steps[1]]),  // refused: already deleted
        ]
        if snapshots { operations.append(.snapshot) }
        operations += [
            .save([steps[4], steps[5]]),
            .ingest([heart[3]]),
            .authorize(share: [.dietaryWater], read: [.height]),
            .delete([steps[0]]),
        ]
        return operations
    }
}

/// Everything a store holds, in comparable form: per type (in slot order) the live entries, both logs and
/// the longest duration; the locations; the sequence number; the authorization answers.
struct StateDump: Equatable, CustomStringConvertible {
    struct Entry: Equatable {
        let sequence: UInt64
        let isOwned: Bool
        let sample: HealthSample
    }

    struct Tombstone: Equatable {
        let sequence: UInt64
        let object: HealthDeletedObject
        let sample: HealthSample
    }

    struct Section: Equatable {
        let type: String
        let entries: [Entry]
        let additions: [String]
        let tombstones: [Tombstone]
        let longestDuration: Double
    }

    struct Location: Equatable {
        let slot: Int
        let sequence: UInt64
        let correlation: UUID?
    }

    let sections: [Section]
    let locations: [UUID: Location]
    let sequence: UInt64
    let share: [String: Bool]
    let read: [String: Bool]

    init(_ image: StoreImage) {
        sections = image.sections.map { section in
            Section(
                type: section.type.identifier,
                entries: section.index.entries.map {
                    Entry(sequence: $0.sequence, isOwned: $0.isOwned, sample: $0.sample)
                },
                additions: section.index.additions.map { "\($0.sequence):\($0.uuid)" },
                tombstones: section.index.tombstones.map {
                    Tombstone(sequence: $0.sequence, object: $0.object, sample: $0.sample)
                }, longestDuration: section.index.longestDuration)
        }
        var locations: [UUID: Location] = [:]
        image.locations.forEach { uuid, location in
            locations[uuid.uuid] = Location(
                slot: location.slot, sequence: location.sequence, correlation: image.correlations[uuid])
        }
        self.locations = locations
        sequence = image.sequence
        share = Dictionary(uniqueKeysWithValues: image.authorization.share.map { ($0.key.identifier, $0.value) })
        read = Dictionary(uniqueKeysWithValues: image.authorization.read.map { ($0.key.identifier, $0.value) })
    }

    var description: String {
        "StateDump(sequence: \(sequence), types: \(sections.map { "\($0.type)×\($0.entries.count)+\($0.tombstones.count)" }), "
            + "share: \(share.count), read: \(read.count))"
    }
}
