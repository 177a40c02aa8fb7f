import FlowKit
import Foundation
import HealthFlow

/// One run of a ``SyncEngine``, as its steps. ``SyncEngine`` drives them:
///
/// 1. ``init(engine:reporter:)``: the folders made, the state loaded, stale body files removed.
/// 2. ``resumePending()``: a batch left pending is checked, re-sent byte for byte and committed.
/// 3. ``restartIfUntrusted()``: anchors that do not belong to this store are dropped.
/// 4. ``gather()`` → ``serialize(_:)`` → ``send(_:)`` → ``commit(_:receipt:)``, again from ``gather()`` while
///    ``commit(_:receipt:)`` answers ``Outcome/gatherAgain``.
///
/// Each step reads and updates ``state`` and ``report``, saves the state where its guarantee needs it, and passes
/// its ``SyncCheckpoint``; a step that throws leaves the state as durable as the last save made it.
struct SyncRun {
    /// A batch's changes, gathered and not yet written anywhere.
    struct Gathered: Sendable {
        let batchID: UUID
        /// The changes in type order; at most the engine's batch size in all.
        let sections: [SyncPlanSection]
        /// The store's history checkpoint taken right after gathering, so it covers every anchor the batch
        /// advances to (`nil` for a store that keeps no history).
        let checkpoint: HealthHistoryCheckpoint?
        /// Whether the batch is rebuilt under the ID an older version recorded as `pendingBatchID`.
        let resendsLegacyBatch: Bool

        var changeCount: Int { sections.reduce(0) { $0 + $1.count } }
        /// Whether changes may be left after the batch: some type filled the room the batch gave it (the batch
        /// is full, or a type that carries series took its ``SyncSeriesGathering/samplesPerBatch(of:)``). A batch
        /// where none did holds everything that was left, and the run ends with it.
        var mayHaveMore: Bool { sections.contains(where: \.filledItsRoom) }
    }

    /// A batch whose body is durable in the state folder and recorded as the state's pending batch.
    struct Durable {
        let record: PendingBatch
        let path: FileSystemPath
        /// Whether changes may be left after it (``Gathered/mayHaveMore``).
        let mayHaveMore: Bool
        let resendsLegacyBatch: Bool
        /// The temp body written while serializing, removed once the upload is over (`nil` for a resumed batch).
        let prepared: PreparedSyncBatch?
        /// Its body being staged in the transport while it was prepared ahead (``Staging/upload``), or `nil`.
        var upload: Task<StagedTransportBody?, Never>? = nil
    }

    /// What follows a commit.
    enum Outcome: Equatable {
        /// The batch came out full, or must be sent again: more changes may be waiting.
        case gatherAgain
        /// The batch held everything that was left.
        case finished
    }

    /// The body file of an acknowledged batch whose commit is not yet durable.
    struct CommittedBody: Equatable {
        let path: FileSystemPath
        let batchID: UUID
    }

    let engine: SyncEngine
    let reporter: SyncReporter?
    /// The threads the blocking steps run on (``SyncWorkers``), kept for the whole run. ``SyncEngine`` stops them
    /// at the run's end; those of a run made without them end after 5 s without a job.
    let workers: SyncWorkers
    private(set) var state: SyncState
    /// The sequence ``state`` was last kept under (``StoredSyncState``): the next pending batch file gets one more.
    private(set) var sequence: UInt64
    private(set) var report = SyncReport()
    /// The body file of the last acknowledged batch while its commit is in ``state`` only: the commit becomes
    /// durable with the next save (the next batch's pending batch file, or ``saveCommitted()``), and the file is
    /// removed after that save.
    private(set) var unsavedCommit: CommittedBody?

    /// Starts a run: the private temp folder and the state folder made, the state loaded, and pending files of
    /// batches that never became pending (a crash before the record was durable), whose commit finished (a crash
    /// before the file was deleted) or that a newer pending batch file replaced removed.
    /// - Throws: ``SyncEngineError/tempFolder(path:reason:)``, ``SyncEngineError/stateFolder(path:reason:)`` or
    ///   the state file's ``SyncStateError``.
    init(
        engine: SyncEngine, reporter: SyncReporter? = nil, workers: SyncWorkers = SyncWorkers(idleTimeout: .seconds(5))
    ) throws {
        try SyncBatchBody.ensurePrivateFolder(engine.tempFolderPath)
        try engine.ensureStateFolder()
        let stored = try engine.anchorStore.loadStored()
        let prefix = engine.anchorStore.pendingFilePrefix
        SyncBatchBody.removeFiles(
            in: engine.stateFolderPath, prefixes: [Array(prefix.utf8), Array(("." + prefix).utf8)],
            keeping: stored.state.pending.map { Array($0.bodyFileName.utf8) })
        self.engine = engine
        self.reporter = reporter
        self.workers = workers
        self.state = stored.state
        self.sequence = stored.sequence
    }

    /// Re-sends the state's pending batch, if any, from its durable body file under its own ID, and commits it.
    /// - Throws: ``SyncEngineError/pendingBatchMissing(path:)`` or ``SyncEngineError/pendingBatchCorrupt(path:reason:)``
    ///   when the file is not the recorded body; the transport's error when the upload fails (the batch stays
    ///   pending).
    mutating func resumePending() async throws {
        guard let pending = state.pending else { return }
        try Task.checkCancellation()
        let path = try engine.pendingFilePath(pending.bodyFileName)
        try PendingBatchFile.checkBody(at: path, record: pending)
        // Whatever this says, the run gathers again after a resumed batch; a short one is saved at once.
        let changes = pending.samples.values.reduce(0, +) + pending.deletions.values.reduce(0, +)
        let batch = Durable(
            record: pending, path: path, mayHaveMore: changes >= engine.batchSize, resendsLegacyBatch: false,
            prepared: nil)
        let receipt = try await send(batch)
        _ = try commit(batch, receipt: receipt)
    }

    /// Drops the anchors (and the checkpoint) when ``SyncRestart`` finds they do not belong to this store, saving
    /// the state and recording why in ``SyncReport/restart``.
    mutating func restartIfUntrusted() throws {
        guard let restart = SyncRestart.check(state, against: engine.store) else { return }
        state.anchors = [:]
        state.checkpoint = nil
        try saveCommitted()
        report.restart = restart
    }

    /// Gathers the next batch's changes since the anchors (``fill(_:from:since:limit:)``).
    /// - Returns: The batch, or `nil` when nothing is left (a legacy `pendingBatchID` is then cleared and saved).
    mutating func gather() async throws -> Gathered? {
        try Task.checkCancellation()
        // An older state file recorded only the ID: that batch is rebuilt from the anchors under the same key.
        let legacyID = state.pending == nil ? state.pendingBatchID : nil
        let batch = try await Self.collect(
            for: engine, since: state, batchID: legacyID ?? engine.makeBatchID(), resendsLegacyBatch: legacyID != nil)
        guard batch.changeCount > 0 else {
            try endOfChanges()
            return nil
        }
        engine.checkpointHook?(.gathered(batch.batchID))
        return batch
    }

    /// Nothing is left to send: a legacy `pendingBatchID` is cleared, and the state saved when that or the last
    /// commit is not yet durable.
    mutating func endOfChanges() throws {
        let legacy = state.pending == nil && state.pendingBatchID != nil
        if legacy { state.pendingBatchID = nil }
        if legacy || unsavedCommit != nil { try saveCommitted() }
    }

    /// The changes of `engine`'s types since `state`'s anchors, at most a batch of them, under `batchID`, with the
    /// store's history checkpoint taken right after; nothing is written.
    static func collect(
        for engine: SyncEngine, since state: SyncState, batchID: UUID, resendsLegacyBatch: Bool
    ) async throws -> Gathered {
        try Task.checkCancellation()
        let sections = try await fill(engine.types, from: engine.store, since: state, limit: engine.batchSize)
        return Gathered(
            batchID: batchID, sections: sections,
            checkpoint: (engine.store as? any HealthChangeHistory)?.historyCheckpoint(),
            resendsLegacyBatch: resendsLegacyBatch)
    }

    /// Builds the batch's body (``SyncBatchBody/prepare(header:sections:tempFolder:inMemoryLimit:)``): in memory
    /// while small, else in a temp file in the private temp folder; nothing durable is written.
    static func build(_ batch: Gathered, for engine: SyncEngine) throws -> PreparedSyncBatch {
        let header = SyncBatchHeader(batchID: batch.batchID, deviceID: engine.deviceID, createdAt: engine.now())
        return try SyncBatchBody.prepare(
            header: header, sections: batch.sections, tempFolder: engine.tempFolderPath,
            inMemoryLimit: engine.inMemoryLimit)
    }

    /// Writes the batch's body (``SyncBatchBody/prepare(header:sections:tempFolder:inMemoryLimit:)``), then makes
    /// it durable as the pending batch: one ``PendingBatchFile`` holding the body and the state that records it
    /// (the last commit and the gathering's checkpoint included), two `fsync`s. When the state folder is not the
    /// state file's, the state file records it too (``AnchorStore/load()`` reads only the state file's folder).
    /// From here on a crash re-sends these very bytes.
    /// - Returns: The pending batch; its temp body stays until ``send(_:)`` is over (removed here on a throw).
    mutating func serialize(_ batch: Gathered) async throws -> Durable {
        try await persist(batch, body: Self.build(batch, for: engine))
    }

    /// The second half of ``serialize(_:)``: makes the batch, whose body `prepared` holds
    /// (``build(_:for:)``), durable as the pending batch. The file calls (writes, `fsync`s, renames, the unlink of
    /// the last committed batch's file) run on the run's persist thread (``SyncWorkers/persist``) while this task
    /// waits, so the concurrency pool's thread is free meanwhile for the batch gathered ahead.
    ///
    /// `staging`, the batch's pending batch file staged ahead under a temp name (``Ahead/staging``), is renamed
    /// into place when it records exactly the state this writes (same file name, sequence, record and anchors),
    /// which leaves one `fsync` (the folder's) here; otherwise it is removed and the file written whole.
    /// - Returns: The pending batch; `prepared` stays until ``send(_:)`` is over (removed here on a throw, with
    ///   the staged file).
    mutating func persist(
        _ batch: Gathered, body prepared: PreparedSyncBatch, staging: Staging? = nil
    ) async throws -> Durable {
        let staged = await staging?.pending?.value
        do {
            let id = batch.batchID
            let sequence = self.sequence + 1
            var record = Self.pendingBatch(
                batchID: id,
                fileName: PendingBatchFile.name(
                    prefix: engine.anchorStore.pendingFilePrefix, sequence: sequence, batchID: id),
                request: prepared.request, sections: batch.sections)
            let path = try engine.pendingFilePath(record.bodyFileName)
            var next = state
            next.pending = record
            next.pendingBatchID = id
            next.checkpoint = batch.checkpoint ?? state.checkpoint
            let (hook, anchorStore, request) = (engine.checkpointHook, engine.anchorStore, prepared.request)
            let (stored, committedBody) = (StoredSyncState(state: next, sequence: sequence), unsavedCommit?.path)
            let taken = staged.flatMap { Self.records($0, stored, at: path, beside: anchorStore) ? $0 : nil }
            if taken == nil { staged?.file.remove() }
            let (checksum, removal) = try await workers.persist.run {
                () throws -> (UInt32, Result<Void, SyncEngineError>) in
                let checksum: UInt32
                if let taken {
                    hook?(.written(id))
                    try taken.commit { _ in hook?(.renamed(id)) }
                    checksum = taken.checksum
                } else {
                    checksum = try PendingBatchFile.write(request, recording: stored, to: path) { step in
                        hook?(step == .fileSynced ? .written(id) : .renamed(id))
                    }
                }
                if path.parent != anchorStore.path.parent {
                    var saved = stored
                    saved.state.pending?.bodyCRC32 = checksum
                    try anchorStore.save(saved)
                }
                let removal = Result { () throws(SyncEngineError) in
                    if let committedBody { try SyncBatchBody.removePendingFile(at: committedBody) }
                }
                return (checksum, removal)
            }
            record.bodyCRC32 = checksum
            next.pending = record
            state = next
            self.sequence = sequence
            try removal.get()
            unsavedCommit = nil
            hook?(.persisted(id))
            return Durable(
                record: record, path: path, mayHaveMore: batch.mayHaveMore,
                resendsLegacyBatch: batch.resendsLegacyBatch, prepared: prepared, upload: staging?.upload)
        } catch {
            prepared.remove()
            staged?.file.remove()
            await staging?.upload?.value?.discard()
            throw error
        }
    }

    /// Whether `staged` is the pending batch file `stored` makes at `path`, beside the state file of `anchorStore`.
    static func records(
        _ staged: PendingBatchFile.Staged, _ stored: StoredSyncState, at path: FileSystemPath,
        beside anchorStore: AnchorStore
    ) -> Bool {
        var expected = stored
        expected.state.pending?.bodyCRC32 = staged.checksum
        return staged.file.destination == path && path.parent == anchorStore.path.parent && staged.stored == expected
    }

    /// Uploads the pending batch from its durable body file (read afresh for every attempt), reporting its start
    /// and its upload's events when the run is observed; the temp body is removed once the upload is over.
    ///
    /// A body staged in the transport ahead (``Durable/upload``) that holds the pending record's bytes (batch ID,
    /// length, CRC-32) is delivered by ``StagingUploadTransport/deliver(_:as:reporter:)`` on the run's persist
    /// thread (for ``OutboxTransport``: the link into place and the outbox's `fsync`, one `fsync` on the way instead
    /// of two). Any other staged body is discarded, and the batch uploaded from its pending batch file.
    /// - Returns: The receiver's 2xx answer.
    func send(_ batch: Durable) async throws -> UploadReceipt {
        defer { batch.prepared?.remove() }
        let staged = await batch.upload?.value
        let request = UploadRequest(
            batchID: batch.record.batchID, contentType: batch.record.contentType,
            contentLength: batch.record.bodyLength, fileExtension: "multipart",
            body: PendingBatchFile.body(at: batch.path, length: batch.record.bodyLength))
        let receipt: UploadReceipt
        if let staged, staged.holds(batch.record) {
            let reporting = reporter?.batchStarted(batch.record) ?? .unobserved()
            receipt = try await workers.persist.run { try staged.deliver(as: request, reporter: reporting) }
        } else if let reporter {
            staged?.discard()
            receipt = try await engine.transport.upload(request, reporter: reporter.batchStarted(batch.record)).value
        } else {
            staged?.discard()
            receipt = try await engine.transport.upload(request)
        }
        engine.checkpointHook?(.acknowledged(batch.record.batchID))
        return receipt
    }

    /// Commits an acknowledged batch: end anchors in and pending out, in one state. A rebuilt legacy batch the
    /// receiver calls a duplicate kept the older version's copy, whose content is unknown: its anchors are not
    /// advanced, so its changes go again.
    ///
    /// A short batch (the last of the run) is saved at once (the state file) and its pending batch file deleted.
    /// After a full batch the commit stays in ``state`` (``unsavedCommit``) and becomes durable with the next
    /// batch's pending batch file, which records it; the acknowledged batch's file is kept until then. A crash in
    /// between finds the acknowledged batch still pending with its body intact and re-sends it under its own ID,
    /// which the receiver answers as a duplicate: nothing is lost, and the only repeat is one the receiver
    /// de-duplicates by idempotency key.
    /// - Returns: Whether more changes may be waiting.
    mutating func commit(_ batch: Durable, receipt: UploadReceipt) throws -> Outcome {
        let record = batch.record
        let sendAgain = batch.resendsLegacyBatch && receipt.disposition == .duplicate
        if sendAgain {
            state.pending = nil
            state.pendingBatchID = nil
        } else {
            state.commitPending()
        }
        let outcome: Outcome = sendAgain || batch.mayHaveMore ? .gatherAgain : .finished
        // Every batch is saved as pending before it is sent, so no earlier commit can still be unsaved here.
        if unsavedCommit != nil { try saveCommitted() }
        unsavedCommit = CommittedBody(path: batch.path, batchID: record.batchID)
        if outcome == .finished { try saveCommitted() }
        report.batches += 1
        report.batchIDs.append(record.batchID)
        report.bytes += record.bodyLength
        if receipt.disposition == .duplicate { report.duplicates += 1 }
        if !sendAgain {
            report.samples.merge(record.samples, uniquingKeysWith: +)
            report.deletions.merge(record.deletions, uniquingKeysWith: +)
        }
        if !sendAgain { engine.checkpointHook?(.committed(record.batchID)) }
        reporter?.batchCommitted(record, receipt: receipt)
        return outcome
    }

    /// Saves ``state`` as the state file, durably, under the sequence of the newest pending batch file (which it
    /// replaces), and deletes the body file of the batch whose commit it holds (if any): the end of a run, of a
    /// failed one after a batch was acknowledged, or a restart.
    mutating func saveCommitted() throws {
        let (hook, id) = (engine.checkpointHook, unsavedCommit?.batchID)
        try engine.anchorStore.save(StoredSyncState(state: state, sequence: sequence)) { step in
            if let id { hook?(step == .fileSynced ? .stateWritten(id) : .stateRenamed(id)) }
        }
        try removeCommittedBody()
    }

    /// Deletes the body file of the last committed batch, once ``state`` holding its commit is durable.
    private mutating func removeCommittedBody() throws {
        guard let path = unsavedCommit?.path else { return }
        try SyncBatchBody.removePendingFile(at: path)
        unsavedCommit = nil
    }

    /// A batch's sections: the types queried one after another, in order, each for at most the room the types
    /// before it left, until the batch is full; the types after that wait for the next batch. Each change is
    /// read once per batch it goes into — a full batch reads `limit` changes, however many types are pending —
    /// and each section's anchor stops exactly after its last change.
    /// The samples that carry series (ECGs, workouts) are read with them (``SyncSeriesGathering``).
    static func fill(
        _ types: [HealthObjectType], from store: any HealthStore, since state: SyncState, limit: Int
    ) async throws -> [SyncPlanSection] {
        let sections = try await fill(types, since: state, limit: limit) { type, anchor, room in
            try await store.changes(of: type, since: anchor, limit: room)
        }
        return try await SyncSeriesGathering.withSeries(sections, from: store)
    }

    /// ``fill(_:from:since:limit:)`` over any source of changes: `changes` answers a type's changes after an
    /// anchor, at most `room` of them. A type whose samples carry series takes at most
    /// ``SyncSeriesGathering/samplesPerBatch(of:)``, leaving the rest of the room to the types after it.
    static func fill(
        _ types: [HealthObjectType], since state: SyncState, limit: Int,
        changes: (HealthObjectType, HealthQueryAnchor?, _ room: Int) async throws -> HealthAnchoredChanges
    ) async throws -> [SyncPlanSection] {
        var room = limit
        var sections: [SyncPlanSection] = []
        for type in types where room > 0 {
            let offered = SyncSeriesGathering.room(for: type, within: room)
            let found = try await changes(type, state.anchor(for: type), offered)
            sections.append(SyncPlanSection(type: type, changes: found, offered: offered))
            room -= min(room, found.samples.count + found.deletedObjects.count)
        }
        return sections
    }

    /// The record of a batch about to be sent: its body, and the anchors and counts its sections carry.
    static func pendingBatch(
        batchID: UUID, fileName: String, request: UploadRequest, sections: [SyncPlanSection]
    ) -> PendingBatch {
        var pending = PendingBatch(
            batchID: batchID, bodyFileName: fileName, bodyLength: request.contentLength,
            contentType: request.contentType, endAnchors: [:])
        pending.endAnchors = endAnchors(of: sections)
        for section in sections {
            let identifier = section.type.identifier
            let (added, deleted) = (section.changes.samples.count, section.changes.deletedObjects.count)
            if added > 0 { pending.samples[identifier, default: 0] += added }
            if deleted > 0 { pending.deletions[identifier, default: 0] += deleted }
        }
        return pending
    }

    /// The anchors, by type identifier, that a batch of `sections` advances to once acknowledged.
    static func endAnchors(of sections: [SyncPlanSection]) -> [String: HealthQueryAnchor] {
        var anchors: [String: HealthQueryAnchor] = [:]
        for section in sections { anchors[section.type.identifier] = section.changes.newAnchor }
        return anchors
    }
}
