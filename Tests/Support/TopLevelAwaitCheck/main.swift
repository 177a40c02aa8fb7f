// Top-level code that awaits every async twin of a promise API. It is built, never run: the build proves that
// in top-level code a `try await` with its result type stated compiles to the async twin, without a warning
// (the promise twins are unavailable here, so a promise can no longer be picked silently).
import FlowKit
import Foundation
import HealthFlow
import HealthSync

let app = HealthAppConfiguration(
    bundleIdentifier: "com.example.steps", name: "Steps",
    healthShareUsageDescription: "Shows your steps.", healthUpdateUsageDescription: "Logs your walks.")
let store = InMemoryHealthStore(configuration: app, policy: .grantAll)
let midnight = Calendar.current.startOfDay(for: Date())
let walk = HealthSample.quantity(
    try HealthQuantitySample(
        type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: 1_200),
        start: midnight.addingTimeInterval(600), end: midnight.addingTimeInterval(1_200), source: store.source))

// HealthFlow's workflows.
try await store.requestAuthorization(toShare: [.stepCount], read: [.stepCount]) as Void
let requestStatus: AuthorizationRequestStatus = try await store.statusForAuthorizationRequest(
    toShare: [.stepCount], read: [])
try await store.availableType(.stepCount) as Void
try await store.save(walk) as Void
try await store.save([walk]) as Void
let today: [HealthSample] = try await store.samples(of: .stepCount, matching: .samples(withStart: midnight, end: nil))
let changes: HealthAnchoredChanges = try await store.changes(of: .stepCount, since: nil)
let total: HealthStatistics? = try await store.statistics(of: .stepCount, options: .cumulativeSum)
let hourly: StatisticsCollection = try await store.statisticsCollection(
    of: .stepCount, options: .cumulativeSum, anchorDate: midnight, intervalComponents: DateComponents(hour: 1))
let summaries: [ActivitySummary] = try await store.activitySummaries(matching: nil)
try await store.delete(walk) as Void
try await store.delete([walk]) as Void
let change: HealthObserverUpdate = try await store.nextChange(of: .stepCount)

// FlowKit's combinators.
let scheduler = DispatchScheduler()
try await after(.milliseconds(1)) as Void
try await after(.milliseconds(1), on: scheduler) as Void
let retried: Int = try await retry(attempts: 2) { Promise(value: 1) }
let retriedAsync: Int = try await retry(attempts: 2, { () async throws -> Int in 1 }, while: { _ in true })
let limited: Int = try await timeout(.seconds(1)) { Promise(value: 1) }
let all: [Int] = try await when(fulfilled: [Promise(value: 1), Promise(value: 2)])
let pair: (Int, String) = try await when(fulfilled: Promise(value: 1), Promise(value: "two"))
let triple: (Int, String, Double) = try await when(
    fulfilled: Promise(value: 1), Promise(value: "2"), Promise(value: 3.0))
let quadruple: (Int, String, Double, Bool) = try await when(
    fulfilled: Promise(value: 1), Promise(value: "2"), Promise(value: 3.0), Promise(value: true))
let outcomes: [Result<Int, any Error>] = try await when(resolved: [Promise(value: 1)])
let first: Int = try await race([Promise(value: 1), Promise(value: 2)])
let firstOfTwo: Int = try await race(Promise(value: 1), Promise(value: 2))
let anyValue: Int = try await any([Promise<Int>(error: CancellationError()), Promise(value: 2)])
// HealthSync's transports and engine.
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("top-level-await-check")
let outbox = try OutboxTransport(directory: scratch.appendingPathComponent("outbox"))
let request = UploadRequest(
    batchID: UUID(), contentType: "application/json", contentLength: 2, body: .data(Data("{}".utf8)))
let receipt: UploadReceipt = try await outbox.upload(request)
let uploader = Uploader(transport: outbox)
let retriedReceipt: UploadReceipt = try await uploader.upload(request)
let engine = try SyncEngine(
    store: store, types: [.stepCount], anchorStore: AnchorStore(fileURL: scratch.appendingPathComponent("state.json")),
    transport: outbox, deviceID: "check", tempFolder: scratch.appendingPathComponent("tmp"))
let report: SyncReport = try await engine.sync()
print(receipt, retriedReceipt, report)
print(requestStatus, today.count, changes.samples.count, total as Any, hourly, summaries.count, change)
print(retried, retriedAsync, limited, all, pair, triple, quadruple, outcomes.count, first, firstOfTwo, anyValue)
