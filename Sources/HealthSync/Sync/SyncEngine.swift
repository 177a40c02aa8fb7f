import FlowKit
import Foundation
import HealthFlow

/// Sends what changed in a ``HealthFlow/HealthStore`` since the last acknowledged batch, through an
/// ``UploadTransport``, and advances the per-type anchors only once the receiver acknowledged the batch.
///
/// One run (``sync()-(_)``, or its async twin) loads the ``SyncState`` and loops until nothing is left:
///
/// 1. If the state records a `pendingBatchID` (an earlier run prepared a batch and did not see it
///    acknowledged), the batch is rebuilt from the stored anchors and re-sent under the **same** ID, the
///    idempotency key. Otherwise a new ID is drawn.
/// 2. The changes since each type's anchor are gathered for all types concurrently (`when(fulfilled:)`), at most
///    `batchSize` samples plus deletions per batch (types in configuration order fill the batch).
/// 3. The batch is written with ``SyncBatchWriter``, gzipped (``GzipCompressor``) and framed as one multipart part
///    (`application/gzip`, filename `batch-<ID>.json.gz`): in memory while small, else in a temp file created
///    0600 in the private (0700) temp folder, removed on every path.
/// 4. `pendingBatchID` is saved durably **before** the upload.
/// 5. After the upload succeeded, the new anchors and the cleared `pendingBatchID` are saved in one atomic
///    ``AnchorStore/save(_:)``. A failed upload leaves the anchors as they were and the pending ID recorded.
///
/// A re-sent batch the receiver reports as ``UploadReceipt/Disposition/duplicate`` may hold other content than the
/// copy it stored (the store may have changed since the crash), so its anchors are **not** advanced: the pending
/// ID is cleared and the same changes go out again in a fresh batch. Nothing is ever lost; a change may be
/// delivered twice (receivers deduplicate samples by UUID).
///
/// ```swift
/// let engine = try SyncEngine(
///     store: store, types: [.stepCount, .heartRate], anchorStore: AnchorStore(fileURL: stateURL),
///     transport: try OutboxTransport(directory: outboxURL), deviceID: "device-1",
///     batchSize: 1_000, tempFolder: privateTempURL)
/// let report = try await engine.sync()
/// print(report.isEmpty ? "nothing to send" : "\(report.totalSamples) samples in \(report.batches) batches")
/// ```
///
/// - Note: The app must hold read authorization for the types (a store hides what it may not read). Runs of
///   engines sharing one state file must not overlap: run one at a time. Nothing is logged.
public struct SyncEngine: Sendable {
    /// The default largest number of samples plus deletions in one batch: 1,000.
    ///
    /// ```swift
    /// SyncEngine.defaultBatchSize   // 1_000
    /// ```
    public static let defaultBatchSize = 1_000
    /// The default largest gzip payload kept in memory before it is spilled to a temp file: 256 KiB.
    ///
    /// ```swift
    /// SyncEngine.defaultInMemoryLimit   // 262_144
    /// ```
    public static let defaultInMemoryLimit = 256 * 1024

    /// The store changes are read from.
    ///
    /// ```swift
    /// engine.store.authorizationStatus(for: .height)
    /// ```
    public let store: any HealthStore
    /// The types synced, in the order they fill a batch (duplicates removed).
    ///
    /// ```swift
    /// engine.types   // [.stepCount, .heartRate]
    /// ```
    public let types: [HealthObjectType]
    /// Where the anchors and the pending batch ID are kept.
    ///
    /// ```swift
    /// engine.anchorStore.fileURL.lastPathComponent   // "sync-state.json"
    /// ```
    public let anchorStore: AnchorStore
    /// Where batches go.
    ///
    /// ```swift
    /// let outbox = engine.transport as? OutboxTransport
    /// ```
    public let transport: any UploadTransport
    /// The opaque sending-device identifier written into every batch header.
    ///
    /// ```swift
    /// engine.deviceID   // "device-1"
    /// ```
    public let deviceID: String
    /// The largest number of samples plus deletions in one batch.
    ///
    /// ```swift
    /// engine.batchSize   // 1_000
    /// ```
    public let batchSize: Int
    /// The private folder (0700) temp bodies are written to.
    ///
    /// ```swift
    /// engine.tempFolder.lastPathComponent   // "sync-tmp"
    /// ```
    public let tempFolder: URL
    /// Gzip payloads up to this many bytes are uploaded from memory; larger ones go through a temp file.
    ///
    /// ```swift
    /// engine.inMemoryLimit   // 262_144
    /// ```
    public let inMemoryLimit: Int
    private let makeBatchID: @Sendable () -> UUID
    private let now: @Sendable () -> Date

    /// Creates an engine.
    ///
    /// ```swift
    /// let engine = try SyncEngine(
    ///     store: store, types: [.heartRate], anchorStore: anchors, transport: outbox, deviceID: "device-1",
    ///     tempFolder: dataURL.appendingPathComponent("sync-tmp"))
    /// ```
    /// - Parameters:
    ///   - store: The store to read changes from.
    ///   - types: The sample types to sync.
    ///   - anchorStore: The durable sync state.
    ///   - transport: Where batches go.
    ///   - deviceID: The opaque device identifier for batch headers.
    ///   - batchSize: The most samples plus deletions per batch (at least 1).
    ///   - tempFolder: A private folder for temp bodies; created 0700 when missing.
    ///   - inMemoryLimit: The largest gzip payload uploaded from memory.
    ///   - makeBatchID: Draws the ID of a new batch (random by default; tests pass a fixed sequence).
    ///   - now: The clock for batch headers' `createdAt`.
    /// - Throws: ``SyncEngineError/invalidBatchSize(_:)`` when `batchSize` is below 1.
    public init(
        store: any HealthStore, types: [HealthObjectType], anchorStore: AnchorStore, transport: any UploadTransport,
        deviceID: String, batchSize: Int = SyncEngine.defaultBatchSize, tempFolder: URL,
        inMemoryLimit: Int = SyncEngine.defaultInMemoryLimit,
        makeBatchID: @escaping @Sendable () -> UUID = { UUID() }, now: @escaping @Sendable () -> Date = { Date() }
    ) throws(SyncEngineError) {
        guard batchSize >= 1 else { throw .invalidBatchSize(batchSize) }
        var seen = Set<HealthObjectType>()
        self.store = store
        self.types = types.filter { seen.insert($0).inserted }
        self.anchorStore = anchorStore
        self.transport = transport
        self.deviceID = deviceID
        self.batchSize = batchSize
        self.tempFolder = tempFolder
        self.inMemoryLimit = max(0, inMemoryLimit)
        self.makeBatchID = makeBatchID
        self.now = now
    }

    /// Runs one sync: re-sends a pending batch if any, then sends every change in batches until none is left.
    ///
    /// ```swift
    /// engine.sync().done { report in show(report.isEmpty ? "up to date" : "\(report.batches) batches sent") }
    /// ```
    /// - Returns: A promise of what was sent; rejected with the store's, transport's, ``SyncStateError`` or
    ///   ``SyncEngineError`` error (anchors then stay where the last acknowledged batch left them).
    public func sync() -> Promise<SyncReport> {
        Promise { try await run() }
    }

    /// The async twin of ``sync()-(_)``: the same run, awaited.
    ///
    /// ```swift
    /// let report = try await engine.sync()
    /// ```
    /// - Returns: What was sent.
    /// - Throws: The store's, transport's, ``SyncStateError`` or ``SyncEngineError`` error.
    public func sync() async throws -> SyncReport {
        try await run()
    }

    private func run() async throws -> SyncReport {
        try SyncBatchBody.ensurePrivateFolder(tempFolder)
        var state = try anchorStore.load()
        var report = SyncReport()
        while true {
            try Task.checkCancellation()
            let recovering = state.pendingBatchID != nil
            let batchID = state.pendingBatchID ?? makeBatchID()
            let sections = try await gather(since: state)
            let count = sections.reduce(0) { $0 + $1.count }
            if count == 0 {
                if recovering {
                    state.pendingBatchID = nil
                    try anchorStore.save(state)
                }
                return report
            }
            let header = SyncBatchHeader(batchID: batchID, deviceID: deviceID, createdAt: now())
            let prepared = try SyncBatchBody.prepare(
                header: header, sections: sections, tempFolder: tempFolder, inMemoryLimit: inMemoryLimit)
            let receipt: UploadReceipt
            do {
                defer { prepared.remove() }
                if !recovering {
                    state.pendingBatchID = batchID
                    try anchorStore.save(state)
                }
                receipt = try await transport.upload(prepared.request)
            }
            report.batches += 1
            report.batchIDs.append(batchID)
            report.bytes += prepared.request.contentLength
            if receipt.disposition == .duplicate {
                report.duplicates += 1
                if recovering {
                    // The receiver kept an earlier copy whose content is unknown: send these changes again.
                    state.pendingBatchID = nil
                    try anchorStore.save(state)
                    continue
                }
            }
            for section in sections {
                state.setAnchor(section.changes.newAnchor, for: section.type)
                let (added, deleted) = (section.changes.samples.count, section.changes.deletedObjects.count)
                if added > 0 { report.samples[section.type.identifier, default: 0] += added }
                if deleted > 0 { report.deletions[section.type.identifier, default: 0] += deleted }
            }
            state.pendingBatchID = nil
            try anchorStore.save(state)
            if count < batchSize { return report }
        }
    }

    /// The next batch's sections: every type queried concurrently, then filled in type order up to `batchSize`;
    /// the type that overflows is queried again with the room left, so its anchor stops exactly there.
    private func gather(since state: SyncState) async throws -> [SyncPlanSection] {
        let store = self.store
        let limit = batchSize
        let found = try await when(
            fulfilled: types.map { type in store.changes(of: type, since: state.anchor(for: type), limit: limit) }
        ).value
        var room = limit
        var sections: [SyncPlanSection] = []
        for (type, changes) in zip(types, found) {
            let count = changes.samples.count + changes.deletedObjects.count
            if count <= room {
                sections.append(SyncPlanSection(type: type, changes: changes))
                room -= count
            } else if room > 0 {
                let trimmed = try await store.changes(of: type, since: state.anchor(for: type), limit: room).value
                sections.append(SyncPlanSection(type: type, changes: trimmed))
                room -= min(room, trimmed.samples.count + trimmed.deletedObjects.count)
            } else {
                break
            }
        }
        return sections
    }
}
