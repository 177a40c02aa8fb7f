import ExampleSupport
import Foundation
import HealthFlow
import HealthSync

/// Seeds 002 and 004, "observe and upload": for each observed type, gather what changed since the last sync
/// (quantities, sleep stages, ECGs), all types at once, then hand the batch to the upload step. The seed did
/// the fan-out with a `DispatchGroup`; here that version stands beside `when(fulfilled:)` and a task group.
/// The upload step is HealthSync's: the batch is written in the documented JSON schema, gzipped, framed as
/// multipart/form-data and handed to an ``HealthSync/UploadTransport`` — an HTTP server
/// (``HealthSync/HTTPTransport``) or, by default, an outbox folder (``HealthSync/OutboxTransport``).
public enum ObserveAndUploadExample: HealthExample {
    /// `observe-and-upload`.
    public static let name = "observe-and-upload"
    /// What it shows.
    public static let summary =
        "changes since the last sync for every type at once (DispatchGroup · when · task group) → upload"

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
            samples.append(
                .quantity(try quantitySample(.stepCount, 100 + Double(hour * 37 % 500), "count", from, 3_000, context)))
            for half in 0..<2 {
                let at = from.addingTimeInterval(Double(half) * 1_800)
                samples.append(
                    .quantity(
                        try quantitySample(.heartRate, 58 + Double((hour + half) % 30), "count/min", at, 0, context)))
            }
        }
        let night = start.addingTimeInterval(-6 * 3_600)
        let stages: [SleepAnalysisValue] = [.inBed, .asleepCore, .asleepDeep, .asleepREM]
        for (index, stage) in stages.enumerated() {
            let from = night.addingTimeInterval(Double(index) * 5_400)
            samples.append(
                .category(
                    try HealthCategorySample(
                        stage, start: from, end: from.addingTimeInterval(5_400), source: context.source)))
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

    /// The device ID written into the example's batch headers.
    public static let deviceID = "observe-and-upload-example"

    /// Runs one style, gathering from the start (no saved anchors), and uploads to the embedded default: an outbox
    /// folder, `<workDirectory>/outbox`.
    public static func run(_ style: ExampleStyle, in context: ExampleContext) async -> ExampleOutcome {
        let outbox: OutboxTransport
        do {
            outbox = try OutboxTransport(directory: outboxDirectory(of: context))
        } catch {
            return ExampleOutcome(.failure(error))
        }
        return await run(style, in: context, to: outbox)
    }

    /// Runs one style, uploading through `transport` (an ``HealthSync/HTTPTransport`` for a real server).
    public static func run(
        _ style: ExampleStyle, in context: ExampleContext, to transport: any UploadTransport
    ) async -> ExampleOutcome {
        switch style {
        case .callback:
            await awaitCallback { observeAndUploadWithCallbacks(in: context, to: transport, completion: $0) }
        case .promise: await awaitPromise(observeAndUploadWithPromises(in: context, to: transport))
        case .async: await awaitAsync { try await observeAndUploadAsync(in: context, to: transport) }
        }
    }

    /// The outbox folder of the embedded default, `<workDirectory>/outbox`.
    public static func outboxDirectory(of context: ExampleContext) -> URL {
        context.workDirectory.appendingPathComponent("outbox", isDirectory: true)
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
