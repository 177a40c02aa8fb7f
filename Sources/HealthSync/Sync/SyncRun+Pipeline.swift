import Foundation
import HealthFlow

extension SyncRun {
    /// The batch after the one in flight, gathered and built while that one is made durable, sent and committed.
    /// Nothing of it is state: its body is in memory or in a temp file in the private temp folder, its pending
    /// batch file at most staged under a temp name, and it is either taken up as the next batch (``adopt(_:)``)
    /// or discarded, its temp files removed.
    struct Ahead: Sendable {
        /// The anchors it was gathered from: those the batch before it leaves once committed.
        let since: [String: HealthQueryAnchor]
        let gathered: Gathered
        /// Its body; `nil` when nothing was left to gather.
        let body: PreparedSyncBatch?
        /// The batch after it, gathered while its body was built, from the anchors it leaves, and queued on the
        /// build thread right behind it (``Gathering/build``); `nil` when it is short, or when that gathering
        /// failed or was cancelled (the batch is then gathered when its turn comes, and any error is thrown there).
        let following: Gathering?
        /// Its pending batch file being staged (``SyncRun/stagePending(_:body:since:plan:for:)``) on the run's
        /// staging thread, from the state the batch before it leaves once committed; `nil` when not staged. Its
        /// value is `nil` when the staging failed (the file is then written whole when the batch is persisted).
        let staging: Task<PendingBatchFile.Staged?, Never>?
        /// Its body being staged in the engine's transport (``StagedTransportBody/stage(_:in:)``) on the run's
        /// upload thread, when the transport is a ``StagingUploadTransport``; its value is `nil` when nothing was
        /// staged (the body is then uploaded from its pending batch file when the batch is sent).
        let upload: Task<StagedTransportBody?, Never>?

        /// Removes its staged files, once their staging is over, then its temp body (which they read), if any, and
        /// the body of the batch after it, once built.
        func discard() async {
            await Staging(pending: staging, upload: upload).discard()
            body?.remove()
            await following?.discard()
        }
    }

    /// The files of a batch prepared ahead staged under temp names, each on a thread of its own: its pending batch
    /// file (taken by ``persist(_:body:staging:)``) and its body in the outbox (taken by ``send(_:)``).
    struct Staging: Sendable {
        let pending: Task<PendingBatchFile.Staged?, Never>?
        let upload: Task<StagedTransportBody?, Never>?

        /// Waits for both stagings and removes what they wrote.
        func discard() async {
            await pending?.value?.file.remove()
            await upload?.value?.discard()
        }
    }

    /// A batch's changes gathered ahead from the anchors `since`, and its body being built on the run's build
    /// thread, queued there behind the batch before it so that the thread goes from one build to the next without
    /// waiting for the run's loop to take the batch before up. Whoever holds it last takes the body up or discards
    /// it (``discard()``).
    struct Gathering: Sendable {
        let since: [String: HealthQueryAnchor]
        let gathered: Gathered
        /// Its body being built; `nil` when no build was started for it.
        var build: Task<PreparedSyncBatch, any Error>? = nil

        /// Waits for its build, if any, and removes the body built.
        func discard() async {
            if let body = try? await build?.value { body.remove() }
        }
    }

    /// Sends every change from the anchors on, batch after batch, pipelined: while a batch is made durable
    /// (``persist(_:body:)``), sent and committed, the batch after it is built in `group` and the one after that
    /// gathered and queued on the build thread behind it (``lookahead(after:reusing:)``); the batch built ahead is
    /// taken up only once the batch before it is committed (``adopt(_:)``). At most two batches are built ahead,
    /// and nothing of either becomes state before the batch before them is committed (the first has at most its
    /// pending batch file staged under a temp name, which ``AnchorStore/load()`` never reads and a run's start
    /// removes; the second is a body in memory or in the private temp folder): a crash, a failure or a
    /// cancellation leaves the state as the unpipelined run would.
    /// - Throws: The first step's error; the batch prepared ahead, if any, is then cancelled and discarded, and
    ///   the next run sends again from the batch that failed.
    mutating func sendAll(in group: inout ThrowingTaskGroup<Ahead, any Error>) async throws {
        var following: Gathering?
        do {
            var next = try await gatherAndBuild()
            while let (gathered, body, staging) = next {
                let ahead = lookahead(after: gathered, reusing: following)
                if ahead == nil { await following?.discard() }
                following = nil
                if let ahead { group.addTask(operation: ahead) }
                let batch = try await persist(gathered, body: body, staging: staging)
                let receipt = try await send(batch)
                guard try commit(batch, receipt: receipt) == .gatherAgain else { break }
                if ahead != nil, let prepared = try await group.next() {
                    next = try await adopt(prepared)
                    // `adopt` discards all of a batch it does not take up, the batch after it included.
                    following = next?.0.batchID == prepared.gathered.batchID ? prepared.following : nil
                } else {
                    next = try await gatherAndBuild()
                }
            }
        } catch {
            await following?.discard()
            await Self.discardAhead(in: &group)
            throw error
        }
        await following?.discard()
        await Self.discardAhead(in: &group)
    }

    /// The next batch gathered (``gather()``) and built (``build(_:for:)``), or `nil` when nothing is left.
    mutating func gatherAndBuild() async throws -> Next? {
        guard let gathered = try await gather() else { return nil }
        return (gathered, try Self.build(gathered, for: engine), nil)
    }

    /// The next batch to persist: its changes, its body and, when it was prepared ahead, its files being staged.
    typealias Next = (Gathered, PreparedSyncBatch, Staging?)

    /// What the pending batch file of a batch prepared ahead records besides the batch, when it is staged ahead:
    /// the state's sequence and checkpoint once the batch before it is persisted and committed. Planned before
    /// that batch is persisted (as ``sendAll(in:)`` does), so the sequence is two past the state's; a plan made at
    /// any other time stages a file that ``persist(_:body:staging:)`` removes instead of taking.
    struct StagingPlan: Sendable {
        let sequence: UInt64
        let checkpoint: HealthHistoryCheckpoint?
    }

    /// The work that gathers and builds the batch after `batch`, to run while `batch` is made durable, sent and
    /// committed: from the anchors `batch` leaves once committed, under the next batch ID (drawn now, in batch
    /// order). `reusing`, gathered ahead from those very anchors, is taken as it is with its build (its ID was
    /// drawn when it was gathered); one gathered from other anchors is discarded. While the body is built (on the
    /// run's build thread), the batch after it is gathered (``Ahead/following``), its ID drawn then, and its build
    /// queued behind this one. It writes nothing durable and tells ``SyncEngine/lookaheadHook`` once the body is
    /// built. When the pending batch files are kept beside the state
    /// file, its pending batch file is then staged under a temp name on the run's staging thread (``Ahead/staging``),
    /// for the state `batch` leaves once persisted and committed: ``persist(_:body:staging:)`` only renames it
    /// into place when that is the state it finds.
    /// - Returns: The work, or `nil` when nothing may be prepared ahead: `batch` is short (it holds everything
    ///   left, so the run ends with it), or it is a rebuilt legacy batch (answered as a duplicate, its changes go
    ///   again from the same anchors).
    func lookahead(after batch: Gathered, reusing gathering: Gathering?) -> (@Sendable () async throws -> Ahead)? {
        guard !batch.resendsLegacyBatch, batch.mayHaveMore else { return nil }
        let since = state.anchors.merging(Self.endAnchors(of: batch.sections)) { _, end in end }
        let (engine, workers) = (engine, workers)
        let reused = gathering.flatMap { $0.since == since ? $0 : nil }
        let stale = reused == nil ? gathering : nil
        let batchID = reused?.gathered.batchID ?? engine.makeBatchID()
        let plan =
            engine.stateFolderPath == engine.anchorStore.path.parent
            ? StagingPlan(sequence: sequence + 2, checkpoint: batch.checkpoint ?? state.checkpoint) : nil
        return {
            await stale?.discard()
            let gathered: Gathered
            if let reused {
                gathered = reused.gathered
            } else {
                gathered = try await Self.collect(
                    for: engine, since: SyncState(anchors: since), batchID: batchID, resendsLegacyBatch: false)
            }
            guard gathered.changeCount > 0 else {
                await reused?.discard()
                return Ahead(
                    since: since, gathered: gathered, body: nil, following: nil, staging: nil, upload: nil)
            }
            let building = reused?.build ?? Self.startBuild(of: gathered, for: engine, on: workers.build)
            let following = await Self.gatherFollowing(gathered, since: since, for: engine, building: workers.build)
            let body: PreparedSyncBatch
            do {
                body = try await building.value
            } catch {
                await following?.discard()
                throw error
            }
            let staging = plan.map { plan in
                Task {
                    try? await workers.staging.run {
                        try Self.stagePending(gathered, body: body, since: since, plan: plan, for: engine)
                    }
                }
            }
            let upload =
                engine.transport is any StagingUploadTransport
                ? Task { try? await workers.upload.run { try StagedTransportBody.stage(body, in: engine.transport) } }
                : nil
            engine.lookaheadHook?(gathered.batchID)
            return Ahead(
                since: since, gathered: gathered, body: body, following: following, staging: staging, upload: upload)
        }
    }

    /// The batch after `batch` (gathered from `since`), gathered from the anchors `batch` leaves under a new batch
    /// ID, its build queued on `builder` when it holds changes; `nil` when `batch` is short, or when the gathering
    /// throws (a store error or a cancellation): that batch is then gathered again when its turn comes, where the
    /// error is thrown.
    static func gatherFollowing(
        _ batch: Gathered, since: [String: HealthQueryAnchor], for engine: SyncEngine, building builder: SyncWorker
    ) async -> Gathering? {
        guard batch.mayHaveMore else { return nil }
        let after = since.merging(endAnchors(of: batch.sections)) { _, end in end }
        guard
            let gathered = try? await collect(
                for: engine, since: SyncState(anchors: after), batchID: engine.makeBatchID(),
                resendsLegacyBatch: false)
        else { return nil }
        let build = gathered.changeCount > 0 ? startBuild(of: gathered, for: engine, on: builder) : nil
        return Gathering(since: after, gathered: gathered, build: build)
    }

    /// Queues the build of `batch`'s body (``build(_:for:)``) on `builder`. The task is not cancelled with the
    /// run: whoever holds it waits for it and takes its body up or removes it.
    static func startBuild(
        of batch: Gathered, for engine: SyncEngine, on builder: SyncWorker
    ) -> Task<PreparedSyncBatch, any Error> {
        Task { try await builder.run { try SyncRun.build(batch, for: engine) } }
    }

    /// Stages the pending batch file of `batch`, built as `body` from the anchors `since`, as the state `plan` says
    /// it will then be (``PendingBatchFile/stage(_:recording:to:)``): written and `fsync`ed under a temp name.
    static func stagePending(
        _ batch: Gathered, body: PreparedSyncBatch, since: [String: HealthQueryAnchor], plan: StagingPlan,
        for engine: SyncEngine
    ) throws -> PendingBatchFile.Staged {
        let name = PendingBatchFile.name(
            prefix: engine.anchorStore.pendingFilePrefix, sequence: plan.sequence, batchID: batch.batchID)
        var state = SyncState(
            anchors: since,
            pending: pendingBatch(
                batchID: batch.batchID, fileName: name, request: body.request, sections: batch.sections))
        state.checkpoint = batch.checkpoint ?? plan.checkpoint
        return try PendingBatchFile.stage(
            body.request, recording: StoredSyncState(state: state, sequence: plan.sequence),
            to: engine.pendingFilePath(name))
    }

    /// Takes up the batch prepared ahead once the batch before it is committed. When the state's anchors are the
    /// ones it was gathered from, it is the next batch (its ``SyncCheckpoint/gathered(_:)`` is passed now) or,
    /// empty, the end of the run (``endOfChanges()``); otherwise it is discarded and the next batch gathered
    /// afresh.
    /// - Returns: The next batch and its body, or `nil` when nothing is left.
    /// - Throws: `CancellationError` when the run is cancelled (the batch is discarded), or the state's save.
    mutating func adopt(_ ahead: Ahead) async throws -> Next? {
        guard ahead.since == state.anchors, state.pending == nil, state.pendingBatchID == nil else {
            await ahead.discard()
            return try await gatherAndBuild()
        }
        do {
            try Task.checkCancellation()
            guard let body = ahead.body else {
                try endOfChanges()
                return nil
            }
            engine.checkpointHook?(.gathered(ahead.gathered.batchID))
            return (ahead.gathered, body, Staging(pending: ahead.staging, upload: ahead.upload))
        } catch {
            await ahead.discard()
            throw error
        }
    }

    /// Cancels the batch being prepared ahead, if any, waits for it and discards it.
    static func discardAhead(in group: inout ThrowingTaskGroup<Ahead, any Error>) async {
        group.cancelAll()
        while let result = await group.nextResult() {
            if case .success(let ahead) = result { await ahead.discard() }
        }
    }
}
