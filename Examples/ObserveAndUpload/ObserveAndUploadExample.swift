import ExampleSupport
import Foundation
import HealthFlow

/// Seeds 002 and 004, "observe and upload": for each observed type, gather what changed since the last sync
/// (quantities, sleep stages, ECGs), all types at once, then hand the batch to the upload step. The seed did
/// the fan-out with a `DispatchGroup`; here that version stands beside `when(fulfilled:)` and a task group.
/// Until the sync issue brings the real uploader, the upload step writes the batch to an outbox folder.
///
/// ```swift
/// try await ObserveAndUploadExample.prepare(context)
/// print(await ObserveAndUploadExample.run(.async, in: context))
/// // gathered stepCount: 24, heartRate: 48, sleepAnalysis: 4, electrocardiogram: 1
/// // outbox: batch-3f2a….json (…)
/// ```
public enum ObserveAndUploadExample: HealthExample {
    /// `observe-and-upload`.
    public static let name = "observe-and-upload"
    /// What it shows.
    public static let summary = "changes since the last sync for every type at once (DispatchGroup · when · task group) → outbox"

    /// The observed types, in the order the batch lists them.
    public static let observedTypes: [HealthObjectType] = [.stepCount, .heartRate, .sleepAnalysis, .electrocardiogram]

    /// Saves a day of steps, heart rate and sleep, and ingests one ECG recorded by a watch.
    public static func prepare(_ context: ExampleContext) async throws {
        try await context.store.requestAuthorization(
            toShare: [.stepCount, .heartRate, .sleepAnalysis], read: Set(observedTypes))
        let start = context.now.addingTimeInterval(-86_400)
        var samples: [HealthSample] = []
        for hour in 0..<24 {
            let from = start.addingTimeInterval(Double(hour) * 3_600)
            samples.append(.quantity(try quantitySample(.stepCount, 100 + Double(hour * 37 % 500), "count", from, 3_000, context)))
            for half in 0..<2 {
                let at = from.addingTimeInterval(Double(half) * 1_800)
                samples.append(.quantity(try quantitySample(.heartRate, 58 + Double((hour + half) % 30), "count/min", at, 0, context)))
            }
        }
        let night = start.addingTimeInterval(-6 * 3_600)
        let stages: [SleepAnalysisValue] = [.inBed, .asleepCore, .asleepDeep, .asleepREM]
        for (index, stage) in stages.enumerated() {
            let from = night.addingTimeInterval(Double(index) * 5_400)
            samples.append(
                .category(try HealthCategorySample(stage, start: from, end: from.addingTimeInterval(5_400), source: context.source)))
        }
        try await context.store.save(samples)
        if let store = context.store as? InMemoryHealthStore {
            let watch = HealthSource(bundleIdentifier: "com.apple.health.watch", name: "Watch")
            let ecg = try HealthElectrocardiogram(
                start: start, end: start.addingTimeInterval(30), classification: .sinusRhythm,
                averageHeartRate: HealthQuantity(unit: try HealthUnit(from: "count/min"), doubleValue: 64),
                samplingFrequency: HealthQuantity(unit: .hertz(), doubleValue: 512),
                numberOfVoltageMeasurements: 15_360, source: watch)
            try store.ingest([.electrocardiogram(ecg)])
        }
    }

    /// Runs one style, gathering from the start (no saved anchors).
    public static func run(_ style: ExampleStyle, in context: ExampleContext) async -> ExampleOutcome {
        switch style {
        case .callback: await awaitCallback { observeAndUploadWithCallbacks(in: context, completion: $0) }
        case .promise: await awaitPromise(observeAndUploadWithPromises(in: context))
        case .async: await awaitAsync { try await observeAndUploadAsync(in: context) }
        }
    }
}

private func quantitySample(
    _ type: HealthObjectType, _ value: Double, _ unit: String, _ start: Date, _ seconds: Double,
    _ context: ExampleContext
) throws -> HealthQuantitySample {
    try HealthQuantitySample(
        type: type, quantity: HealthQuantity(unit: try HealthUnit(from: unit), doubleValue: value), start: start,
        end: start.addingTimeInterval(seconds), source: context.source)
}

/// What one type contributed to the batch.
public struct GatheredChanges: Sendable {
    /// The type.
    public let type: HealthObjectType
    /// New samples since the anchor.
    public let samples: [HealthSample]
    /// Deletions since the anchor.
    public let deletedObjects: [HealthDeletedObject]
    /// Where the next sync resumes.
    public let newAnchor: HealthQueryAnchor?

    /// Wraps one anchored query's answer.
    public init(
        type: HealthObjectType, samples: [HealthSample], deletedObjects: [HealthDeletedObject],
        newAnchor: HealthQueryAnchor?
    ) {
        self.type = type
        self.samples = samples
        self.deletedObjects = deletedObjects
        self.newAnchor = newAnchor
    }
}

/// The upload step, for now: write the batch as JSON into `<workDirectory>/outbox/` under a name derived
/// from its content (so the same changes always make the same file), and describe what was written.
///
/// ```swift
/// let lines = try writeToOutbox(gathered, in: context)
/// ```
/// - Parameters:
///   - gathered: Every type's changes, in ``ObserveAndUploadExample/observedTypes`` order.
///   - context: Where the outbox lives.
/// - Returns: The printed lines: counts per type, then the file.
/// - Throws: Encoding or file-system errors.
public func writeToOutbox(_ gathered: [GatheredChanges], in context: ExampleContext) throws -> [String] {
    let ordered = ObserveAndUploadExample.observedTypes.compactMap { type in gathered.first { $0.type == type } }
    let batch = OutboxBatch(
        types: ordered.map {
            OutboxBatch.Section(
                type: $0.type.identifier, samples: $0.samples.sorted { $0.uuid.uuidString < $1.uuid.uuidString },
                deleted: $0.deletedObjects.map(\.uuid).sorted { $0.uuidString < $1.uuidString })
        })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    let data = try encoder.encode(batch)
    let outbox = context.workDirectory.appendingPathComponent("outbox", isDirectory: true)
    try FileManager.default.createDirectory(
        at: outbox, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let file = outbox.appendingPathComponent("batch-\(fnv1a(data)).json")
    try data.write(to: file, options: .atomic)
    let counts = ordered.map { "\($0.type.identifier): \($0.samples.count)" }.joined(separator: ", ")
    return ["gathered \(counts)", "outbox: \(file.lastPathComponent) (\(data.count) bytes)"]
}

private struct OutboxBatch: Encodable {
    struct Section: Encodable {
        let type: String
        let samples: [HealthSample]
        let deleted: [UUID]
    }

    let types: [Section]
}

/// A 64-bit FNV-1a digest as 16 hex digits: a stable name for identical content.
private func fnv1a(_ data: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return String(hash, radix: 16).leftPadded(to: 16)
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
