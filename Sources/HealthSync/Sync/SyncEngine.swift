import FlowKit
import Foundation
import HealthFlow

/// Sends what changed in a ``HealthFlow/HealthStore`` since the last acknowledged batch, through an
/// ``UploadTransport``, and advances the per-type anchors only once the receiver acknowledged the batch.
///
/// One run (``sync()-(_)``, or its async twin) loads the ``SyncState`` and loops until nothing is left:
///
/// 1. If the state records a ``SyncState/pending`` batch (an earlier run prepared it and did not see it
///    acknowledged), its durable body file is re-sent **byte for byte** under the **same** ID, the idempotency
///    key. After any 2xx — ``UploadReceipt/Disposition/stored`` or ``UploadReceipt/Disposition/duplicate`` — its
///    end anchors are committed and the pending batch cleared in one atomic ``AnchorStore/save(_:)``, then the
///    body file is deleted. A missing body file, or one whose length or CRC-32 differs from the record, throws
///    ``SyncEngineError/pendingBatchMissing(path:)`` / ``SyncEngineError/pendingBatchCorrupt(path:reason:)``:
///    the batch is never silently skipped.
/// 2. The changes since each type's anchor are gathered for all types concurrently (`when(fulfilled:)`), at most
///    `batchSize` samples plus deletions per batch (types in configuration order fill the batch).
/// 3. The batch is written with ``SyncBatchWriter``, gzipped (``GzipCompressor``) and framed as one multipart part
///    (`application/gzip`, filename `batch-<ID>.json.gz`): in memory while small, else in a temp file created
///    0600 in the private (0700) temp folder, removed on every path.
/// 4. **Before** the upload, the whole body is written durably to
///    `<stateFolder>/<state file name>.pending-<ID>.multipart` (0600, `fsync`ed, renamed into place; a state file
///    name that is not UTF-8 appears in its display form, as the state records the body's name as text) and the
///    batch — ID, file, length, CRC-32, content type and the anchors it advances to — is saved as the pending
///    batch.
/// 5. After the upload succeeded, step 1's commit runs. A failed upload leaves the anchors as they were and the
///    batch pending, to be re-sent as it is by the next run.
///
/// Before trusting the anchors, a run checks them against the store (``SyncRestart``): when the state was made
/// for another store, a store since recreated or restored from an older copy, or an anchor lies past the
/// store's last change, the anchors are dropped and everything is sent again (the receiver de-duplicates), and
/// ``SyncReport/restart`` says why. Each saved batch records the store's ``SyncState/checkpoint``.
///
/// A crash at any point loses nothing and duplicates nothing: changes saved after the crash go out in a later
/// batch. (A state file from an older version that recorded only `pendingBatchID` is recovered the old way: the
/// batch is rebuilt from the anchors under that ID; if the receiver reports it a duplicate, the changes are sent
/// again under a new ID, so nothing is lost.)
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
/// Folders and files are named by their bytes (``tempFolderPath``, ``stateFolderPath``, ``AnchorStore/path``):
/// state kept in a folder whose name is not UTF-8 stays there.
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
    /// Where the anchors and the pending batch are kept.
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
    /// The private folder (0700) temp bodies are written to, as a URL: the one given, or ``tempFolderPath`` as a
    /// URL (U+FFFD in place of bytes that are not UTF-8; ``tempFolderPath`` names the folder).
    ///
    /// ```swift
    /// engine.tempFolder.lastPathComponent   // "sync-tmp"
    /// ```
    public let tempFolder: URL
    /// The private folder temp bodies are written to, as the bytes every file call is given.
    ///
    /// ```swift
    /// engine.tempFolderPath.lastComponent.description   // "sync-tmp"
    /// ```
    public let tempFolderPath: FileSystemPath
    /// The folder pending batch bodies are kept in until acknowledged (by default the temp folder's parent), as a
    /// URL: the one given, or ``stateFolderPath`` as a URL.
    ///
    /// ```swift
    /// engine.stateFolder.path   // "/var/lib/healthflow"
    /// ```
    public let stateFolder: URL
    /// The folder pending batch bodies are kept in, as the bytes every file call is given.
    ///
    /// ```swift
    /// engine.stateFolderPath.description   // "/var/lib/healthflow"
    /// ```
    public let stateFolderPath: FileSystemPath
    /// Gzip payloads up to this many bytes are uploaded from memory; larger ones go through a temp file.
    ///
    /// ```swift
    /// engine.inMemoryLimit   // 262_144
    /// ```
    public let inMemoryLimit: Int
    private let makeBatchID: @Sendable () -> UUID
    private let now: @Sendable () -> Date
    /// Told when a run passes each ``SyncCheckpoint`` (crash tests only; see ``reportingCheckpoints(_:)``).
    var checkpointHook: (@Sendable (SyncCheckpoint) -> Void)?

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
    ///   - stateFolder: Where pending batch bodies are kept durably; `nil` for `tempFolder`'s parent.
    ///   - makeBatchID: Draws the ID of a new batch (random by default; tests pass a fixed sequence).
    ///   - now: The clock for batch headers' `createdAt`.
    /// - Throws: ``SyncEngineError/invalidBatchSize(_:)`` when `batchSize` is below 1.
    public init(
        store: any HealthStore, types: [HealthObjectType], anchorStore: AnchorStore, transport: any UploadTransport,
        deviceID: String, batchSize: Int = SyncEngine.defaultBatchSize, tempFolder: URL,
        inMemoryLimit: Int = SyncEngine.defaultInMemoryLimit, stateFolder: URL? = nil,
        makeBatchID: @escaping @Sendable () -> UUID = { UUID() }, now: @escaping @Sendable () -> Date = { Date() }
    ) throws(SyncEngineError) {
        let stateFolder = stateFolder ?? tempFolder.deletingLastPathComponent()
        try self.init(
            store: store, types: types, anchorStore: anchorStore, transport: transport, deviceID: deviceID,
            batchSize: batchSize, tempFolder: (tempFolder, FileSystemPath(tempFolder)), inMemoryLimit: inMemoryLimit,
            stateFolder: (stateFolder, FileSystemPath(stateFolder)), makeBatchID: makeBatchID, now: now)
    }

    /// Creates an engine whose folders are named by their bytes: the way to keep temp bodies and pending batches
    /// in folders whose names are not UTF-8. Everything else is as
    /// ``init(store:types:anchorStore:transport:deviceID:batchSize:tempFolder:inMemoryLimit:stateFolder:makeBatchID:now:)``.
    ///
    /// ```swift
    /// let engine = try SyncEngine(
    ///     store: store, types: [.heartRate], anchorStore: AnchorStore(path: data.appending("sync-state.json")),
    ///     transport: outbox, deviceID: "device-1", tempFolderPath: data.appending("sync-tmp"))
    /// ```
    /// - Parameters:
    ///   - store: The store to read changes from.
    ///   - types: The sample types to sync.
    ///   - anchorStore: The durable sync state.
    ///   - transport: Where batches go.
    ///   - deviceID: The opaque device identifier for batch headers.
    ///   - batchSize: The most samples plus deletions per batch (at least 1).
    ///   - tempFolderPath: A private folder for temp bodies; created 0700 when missing.
    ///   - inMemoryLimit: The largest gzip payload uploaded from memory.
    ///   - stateFolderPath: Where pending batch bodies are kept durably; `nil` for `tempFolderPath`'s parent.
    ///   - makeBatchID: Draws the ID of a new batch (random by default; tests pass a fixed sequence).
    ///   - now: The clock for batch headers' `createdAt`.
    /// - Throws: ``SyncEngineError/invalidBatchSize(_:)`` when `batchSize` is below 1.
    public init(
        store: any HealthStore, types: [HealthObjectType], anchorStore: AnchorStore, transport: any UploadTransport,
        deviceID: String, batchSize: Int = SyncEngine.defaultBatchSize, tempFolderPath: FileSystemPath,
        inMemoryLimit: Int = SyncEngine.defaultInMemoryLimit, stateFolderPath: FileSystemPath? = nil,
        makeBatchID: @escaping @Sendable () -> UUID = { UUID() }, now: @escaping @Sendable () -> Date = { Date() }
    ) throws(SyncEngineError) {
        let stateFolderPath = stateFolderPath ?? tempFolderPath.parent
        try self.init(
            store: store, types: types, anchorStore: anchorStore, transport: transport, deviceID: deviceID,
            batchSize: batchSize, tempFolder: (tempFolderPath.urlOrDisplayForm, tempFolderPath),
            inMemoryLimit: inMemoryLimit, stateFolder: (stateFolderPath.urlOrDisplayForm, stateFolderPath),
            makeBatchID: makeBatchID, now: now)
    }

    private init(
        store: any HealthStore, types: [HealthObjectType], anchorStore: AnchorStore, transport: any UploadTransport,
        deviceID: String, batchSize: Int, tempFolder: (URL, FileSystemPath), inMemoryLimit: Int,
        stateFolder: (URL, FileSystemPath), makeBatchID: @escaping @Sendable () -> UUID,
        now: @escaping @Sendable () -> Date
    ) throws(SyncEngineError) {
        guard batchSize >= 1 else { throw .invalidBatchSize(batchSize) }
        var seen = Set<HealthObjectType>()
        self.store = store
        self.types = types.filter { seen.insert($0).inserted }
        self.anchorStore = anchorStore
        self.transport = transport
        self.deviceID = deviceID
        self.batchSize = batchSize
        (self.tempFolder, self.tempFolderPath) = tempFolder
        self.inMemoryLimit = max(0, inMemoryLimit)
        (self.stateFolder, self.stateFolderPath) = stateFolder
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

    /// The run of ``observedSync()``: ``sync()-(_)`` reporting to `reporter`.
    func sync(reporter: SyncReporter) async throws -> SyncReport {
        try await run(reporter: reporter)
    }

    private func run(reporter: SyncReporter? = nil) async throws -> SyncReport {
        try SyncBatchBody.ensurePrivateFolder(tempFolderPath)
        try SyncBatchBody.makeFolder(stateFolderPath)
        var state = try anchorStore.load()
        var report = SyncReport()
        // Bodies of batches that never became pending (a crash before the state was saved) or whose commit
        // finished (a crash before the file was deleted).
        let prefix = anchorStore.path.lastComponent.description + ".pending-"
        SyncBatchBody.removeFiles(
            in: stateFolderPath, prefixes: [Array(prefix.utf8), Array(("." + prefix).utf8)],
            keeping: state.pending.map { Array($0.bodyFileName.utf8) })
        if let pending = state.pending {
            try Task.checkCancellation()
            let path = try pendingFilePath(pending.bodyFileName)
            try SyncBatchBody.checkPendingFile(at: path, length: pending.bodyLength, crc32: pending.bodyCRC32)
            let receipt = try await upload(pending, at: path, reporter: reporter)
            checkpointHook?(.acknowledged(pending.batchID))
            try commit(pending, receipt: receipt, at: path, state: &state, report: &report)
            checkpointHook?(.committed(pending.batchID))
            reporter?.batchCommitted(pending, receipt: receipt)
        }
        if let restart = SyncRestart.check(state, against: store) {
            state.anchors = [:]
            state.checkpoint = nil
            try anchorStore.save(state)
            report.restart = restart
        }
        // An older state file recorded only the ID: that batch is rebuilt from the anchors under the same key.
        var legacyID = state.pendingBatchID
        while true {
            try Task.checkCancellation()
            let batchID = legacyID ?? makeBatchID()
            let sections = try await gather(since: state)
            // Taken after gathering, so it covers every anchor the batch advances to.
            let checkpoint = (store as? any HealthChangeHistory)?.historyCheckpoint()
            let count = sections.reduce(0) { $0 + $1.count }
            if count == 0 {
                if legacyID != nil {
                    state.pendingBatchID = nil
                    try anchorStore.save(state)
                }
                return report
            }
            checkpointHook?(.gathered(batchID))
            let header = SyncBatchHeader(batchID: batchID, deviceID: deviceID, createdAt: now())
            let prepared = try SyncBatchBody.prepare(
                header: header, sections: sections, tempFolder: tempFolderPath, inMemoryLimit: inMemoryLimit)
            let pending: PendingBatch
            let path: FileSystemPath
            let receipt: UploadReceipt
            do {
                defer { prepared.remove() }
                var record = Self.pendingBatch(
                    batchID: batchID, fileName: prefix + batchID.uuidString + ".multipart",
                    request: prepared.request, sections: sections)
                path = try pendingFilePath(record.bodyFileName)
                record.bodyCRC32 = try SyncBatchBody.persist(prepared.request, to: path)
                pending = record
                state.pending = pending
                state.pendingBatchID = batchID
                state.checkpoint = checkpoint ?? state.checkpoint
                try anchorStore.save(state)
                checkpointHook?(.persisted(batchID))
                receipt = try await upload(pending, at: path, reporter: reporter)
                checkpointHook?(.acknowledged(batchID))
            }
            if legacyID != nil && receipt.disposition == .duplicate {
                // The receiver kept the older version's copy, whose content is unknown: send these changes again.
                report.batches += 1
                report.batchIDs.append(batchID)
                report.bytes += pending.bodyLength
                report.duplicates += 1
                state.pending = nil
                state.pendingBatchID = nil
                try anchorStore.save(state)
                try SyncBatchBody.removePendingFile(at: path)
                reporter?.batchCommitted(pending, receipt: receipt)
                legacyID = nil
                continue
            }
            legacyID = nil
            try commit(pending, receipt: receipt, at: path, state: &state, report: &report)
            checkpointHook?(.committed(batchID))
            reporter?.batchCommitted(pending, receipt: receipt)
            if count < batchSize { return report }
        }
    }

    /// Commits an acknowledged pending batch: end anchors in and pending out in one atomic save, then the body
    /// file is deleted; the report counts the batch.
    private func commit(
        _ pending: PendingBatch, receipt: UploadReceipt, at path: FileSystemPath, state: inout SyncState,
        report: inout SyncReport
    ) throws {
        state.commitPending()
        try anchorStore.save(state)
        report.batches += 1
        report.batchIDs.append(pending.batchID)
        report.bytes += pending.bodyLength
        if receipt.disposition == .duplicate { report.duplicates += 1 }
        report.samples.merge(pending.samples, uniquingKeysWith: +)
        report.deletions.merge(pending.deletions, uniquingKeysWith: +)
        try SyncBatchBody.removePendingFile(at: path)
    }

    /// Uploads a pending batch, reporting its start and its upload's events when the run is observed.
    private func upload(
        _ pending: PendingBatch, at path: FileSystemPath, reporter: SyncReporter?
    ) async throws -> UploadReceipt {
        let request = request(for: pending, at: path)
        guard let reporter else { return try await transport.upload(request) }
        return try await transport.upload(request, reporter: reporter.batchStarted(pending)).value
    }

    /// The upload of a pending batch: its durable body file, read afresh for every attempt.
    private func request(for pending: PendingBatch, at path: FileSystemPath) -> UploadRequest {
        UploadRequest(
            batchID: pending.batchID, contentType: pending.contentType, contentLength: pending.bodyLength,
            fileExtension: "multipart", body: .file(atPath: path))
    }

    /// The record of a batch about to be sent: its body, and the anchors and counts its sections carry.
    private static func pendingBatch(
        batchID: UUID, fileName: String, request: UploadRequest, sections: [SyncPlanSection]
    ) -> PendingBatch {
        var pending = PendingBatch(
            batchID: batchID, bodyFileName: fileName, bodyLength: request.contentLength,
            contentType: request.contentType, endAnchors: [:])
        for section in sections {
            let identifier = section.type.identifier
            pending.endAnchors[identifier] = section.changes.newAnchor
            let (added, deleted) = (section.changes.samples.count, section.changes.deletedObjects.count)
            if added > 0 { pending.samples[identifier, default: 0] += added }
            if deleted > 0 { pending.deletions[identifier, default: 0] += deleted }
        }
        return pending
    }

    /// The pending body file's path; the recorded name must be a bare file name inside the state folder.
    private func pendingFilePath(_ name: String) throws(SyncEngineError) -> FileSystemPath {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw .pendingBatchCorrupt(path: stateFolderPath.appending(name).description, reason: "not a file name")
        }
        return stateFolderPath.appending(name)
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
