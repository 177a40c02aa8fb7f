import FlowKit
import Foundation
import HealthFlow

/// Sends what changed in a ``HealthFlow/HealthStore`` since the last acknowledged batch, through an
/// ``UploadTransport``, and advances the per-type anchors only once the receiver acknowledged the batch.
///
/// One run (``sync()-(_)``, or its async twin) loads the ``SyncState`` and loops until nothing is left:
///
/// 1. If the state records a ``SyncState/pending`` batch (an earlier run prepared it and did not see it
///    acknowledged), its durable body is re-sent **byte for byte** under the **same** ID, the idempotency key.
///    After any 2xx — ``UploadReceipt/Disposition/stored`` or ``UploadReceipt/Disposition/duplicate`` — its end
///    anchors are committed (step 5). A body whose length or CRC-32 differs from the record, or a body file the
///    state file records that is missing, throws ``SyncEngineError/pendingBatchCorrupt(path:reason:)`` /
///    ``SyncEngineError/pendingBatchMissing(path:)``; a damaged pending batch file (step 4) is a
///    ``SyncStateError/corrupt(path:reason:)`` when the state is loaded: the batch is never silently skipped.
/// 2. The changes since each type's anchor are gathered for all types concurrently (`when(fulfilled:)`), at most
///    `batchSize` samples plus deletions per batch (types in configuration order fill the batch). An ECG's voltage
///    measurements, a workout's routes and a heartbeat series' beats are read with their sample and sent with it;
///    a batch takes at most 16 ECGs or workouts and 1,024 heartbeat series, leaving the rest of its room to the
///    types after them (``SyncSampleSeries``).
/// 3. The batch is written with ``SyncBatchWriter``, gzipped (``GzipCompressor``) and framed as one multipart part
///    (`application/gzip`, filename `batch-<ID>.json.gz`): in memory while small, else in a temp file created
///    0600 in the private (0700) temp folder, removed on every path.
/// 4. **Before** the upload, the batch becomes pending in one durable file,
///    `<stateFolder>/<state file name>.pending-<sequence>-<ID>.multipart` (0600; a state file name that is not
///    UTF-8 appears in its display form, as the state records the file's name as text): the whole body, then the
///    state that records it as pending — ID, length, CRC-32, content type, the anchors it advances to, and the
///    anchors committed so far — with its own CRC-32. It is written to a temp name, `fsync`ed, renamed into place
///    and its folder `fsync`ed; then the previous batch's file is deleted. (For a batch prepared ahead, the temp
///    name is written and `fsync`ed while the batch before it is in flight, and renamed only once that batch is
///    committed and the state is the one the file records; a crash before leaves a temp file the next run removes.) ``AnchorStore/load()`` reads the newest
///    such file as the state.
/// 5. After the upload succeeded, the batch's end anchors are committed in memory. They become durable in the
///    next batch's pending file (step 4), or, after the run's last batch, in the state file (``AnchorStore``'s
///    atomic save), after which the last pending file is deleted. A crash in between finds the acknowledged batch
///    still pending with its body intact and re-sends it under its ID, a duplicate the receiver answers as such.
///    A failed upload leaves the anchors as they were and the batch pending, to be re-sent as it is by the next
///    run.
///
/// Per batch that is two `fsync`s — the pending file and its folder — besides what the transport does, and two
/// more per run for the state file. When the state folder is not the state file's folder, each batch also saves
/// the state file (four per batch), since ``AnchorStore/load()`` looks for pending files beside the state file.
///
/// While a full batch goes through steps 4 and 5, the batch after it goes through step 3 — built in memory or in a
/// temp file, from the anchors the batch in flight advances to — and the batch after that through step 2, its build
/// queued right behind, so the `fsync`s, the upload and the gathering overlap the building and the build thread goes
/// from one batch to the next. At most two batches are built ahead, and nothing of either becomes state before the
/// batch before them is committed: when that batch fails or the run is cancelled, both are discarded (their temp
/// files removed) and the next run starts again from the batch that failed. Changes saved after a batch ahead was gathered go out in a later batch or run. With a
/// ``StagingUploadTransport`` (``OutboxTransport`` is one), the body of the batch built ahead is also staged in the transport (for the outbox: written and `fsync`ed under its temp name); once that batch is
/// pending, and only when the staged bytes are the pending record's (ID, length, CRC-32), its delivery is the
/// transport's ``StagingUploadTransport/deliver(_:as:reporter:)`` (for the outbox: the link to its final name and
/// the folder's `fsync`; a temp file is no delivery, and the next outbox removes one a crash left). The blocking steps
/// run on threads the run starts once and stops at its end.
///
/// Before trusting the anchors, a run checks them against the store (``SyncRestart``): when the state was made
/// for another store, a store since recreated or restored from an older copy, or an anchor lies past the
/// store's last change, the anchors are dropped and everything is sent again (the receiver de-duplicates), and
/// ``SyncReport/restart`` says why. Each saved batch records the store's ``SyncState/checkpoint``.
///
/// A crash or power loss at any point loses nothing; the only repeat is the pending batch sent again under its
/// own ID, which the receiver de-duplicates. Changes saved after the crash go out in a later batch. (A state file
/// from an older version that recorded only `pendingBatchID` is recovered the old way: the batch is rebuilt from
/// the anchors under that ID; if the receiver reports it a duplicate, the changes are sent again under a new ID,
/// so nothing is lost. One that recorded a pending body file is resumed from that file.)
///
/// Folders and files are named by their bytes (``tempFolderPath``, ``stateFolderPath``, ``AnchorStore/path``):
/// state kept in a folder whose name is not UTF-8 stays there.
///
/// One run at a time per state file: a run holds `<state file name>.lock` (an exclusive `flock`, beside the state
/// file) from start to end, and a run started meanwhile — by the same engine, another engine or another process —
/// throws ``SyncEngineError/alreadyRunning(lock:)`` before it reads or removes anything. Two overlapping runs would
/// otherwise send the same changes from the same anchors under different batch IDs, and one run's start would
/// remove the other's pending batch file.
///
/// - Note: The app must hold read authorization for the types (a store hides what it may not read). Nothing is
///   logged.
public struct SyncEngine: Sendable {
    /// The default largest number of samples plus deletions in one batch: 1,000.
    public static let defaultBatchSize = 1_000
    /// The default largest gzip payload kept in memory before it is spilled to a temp file: 256 KiB.
    public static let defaultInMemoryLimit = 256 * 1024

    /// The store changes are read from.
    public let store: any HealthStore
    /// The types synced, in the order they fill a batch (duplicates removed).
    public let types: [HealthObjectType]
    /// Where the anchors and the pending batch are kept.
    public let anchorStore: AnchorStore
    /// Where batches go.
    public let transport: any UploadTransport
    /// The opaque sending-device identifier written into every batch header.
    public let deviceID: String
    /// The largest number of samples plus deletions in one batch.
    public let batchSize: Int
    /// The private folder (0700) temp bodies are written to, as a URL: the one given, or ``tempFolderPath`` as a
    /// URL (U+FFFD in place of bytes that are not UTF-8; ``tempFolderPath`` names the folder).
    public let tempFolder: URL
    /// The private folder temp bodies are written to, as the bytes every file call is given.
    public let tempFolderPath: FileSystemPath
    /// The folder pending batch bodies are kept in until acknowledged (by default the temp folder's parent), as a
    /// URL: the one given, or ``stateFolderPath`` as a URL.
    public let stateFolder: URL
    /// The folder pending batch bodies are kept in, as the bytes every file call is given.
    public let stateFolderPath: FileSystemPath
    /// Gzip payloads up to this many bytes are uploaded from memory; larger ones go through a temp file.
    public let inMemoryLimit: Int
    let makeBatchID: @Sendable () -> UUID
    let now: @Sendable () -> Date
    /// Told when a run passes each ``SyncCheckpoint`` (crash tests only; see ``reportingCheckpoints(_:)``).
    var checkpointHook: (@Sendable (SyncCheckpoint) -> Void)?
    /// Told the ID of each batch built ahead, while the batch before it is in flight, from the task that built it
    /// (tests only: they fail or cancel the batch in flight once the next one is prepared).
    var lookaheadHook: (@Sendable (UUID) -> Void)?

    /// Creates an engine.
    ///
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
    /// - Returns: A promise of what was sent; rejected with the store's, transport's, ``SyncStateError`` or
    ///   ``SyncEngineError`` error (anchors then stay where the last acknowledged batch left them).
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func sync() -> Promise<SyncReport> {
        Promise { try await run() }
    }

    /// The async twin of ``sync()-(_)``: the same run, awaited.
    ///
    /// - Returns: What was sent.
    /// - Throws: The store's, transport's, ``SyncStateError`` or ``SyncEngineError`` error.
    public func sync() async throws -> SyncReport {
        try await run()
    }

    /// The run of ``observedSync()``: ``sync()-(_)`` reporting to `reporter`.
    func sync(reporter: SyncReporter) async throws -> SyncReport {
        try await run(reporter: reporter)
    }

    /// The steps of one run (``SyncRun``): resume a pending batch, check the anchors, then gather → serialize →
    /// send → commit until a batch comes out short, the next batch gathered and built while one is in flight
    /// (``SyncRun/sendAll(in:)``).
    ///
    /// The run holds the state file's run lock (``SyncRunLock``) throughout: a second run from the same state
    /// file fails at once with ``SyncEngineError/alreadyRunning(lock:)``, before it reads or removes anything.
    private func run(reporter: SyncReporter? = nil) async throws -> SyncReport {
        try ensureStateFolder()
        let workers = SyncWorkers()
        defer { workers.stop() }
        let lock = try await workers.persist.run { [anchorStore] in
            try SyncRunLock.acquire(forStateFile: anchorStore.path)
        }
        defer { withExtendedLifetime(lock) {} }
        var run = try SyncRun(engine: self, reporter: reporter, workers: workers)
        do {
            try await run.resumePending()
            try run.restartIfUntrusted()
            try await withThrowingTaskGroup(of: SyncRun.Ahead.self) { group in
                try await run.sendAll(in: &group)
            }
        } catch {
            // Keep the last acknowledged batch's commit; were this save to fail too, the next run re-sends that
            // batch from its body file and the receiver answers it as a duplicate.
            if run.unsavedCommit != nil { try? run.saveCommitted() }
            throw error
        }
        return run.report
    }

    /// The pending body file's path; the recorded name must be a bare file name inside the state folder.
    func pendingFilePath(_ name: String) throws(SyncEngineError) -> FileSystemPath {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw .pendingBatchCorrupt(path: stateFolderPath.appending(name).description, reason: "not a file name")
        }
        return stateFolderPath.appending(name)
    }

    /// Creates the state folder (and any missing parent, 0700) unless it exists.
    /// - Throws: ``SyncEngineError/stateFolder(path:reason:)`` when it cannot be created.
    func ensureStateFolder() throws(SyncEngineError) {
        try SyncBatchBody.makeFolder(stateFolderPath, orThrow: SyncEngineError.stateFolder)
    }
}
