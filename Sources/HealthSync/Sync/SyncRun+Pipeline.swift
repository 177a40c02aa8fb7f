import Foundation
import HealthFlow

extension SyncRun {
    /// The batch after the one in flight, gathered and built while that one is made durable, sent and committed.
    /// Nothing of it is durable: its body is in memory or in a temp file in the private temp folder, and it is
    /// either taken up as the next batch (``adopt(_:)``) or discarded, its temp file removed.
    struct Ahead: Sendable {
        /// The anchors it was gathered from: those the batch before it leaves once committed.
        let since: [String: HealthQueryAnchor]
        let gathered: Gathered
        /// Its body; `nil` when nothing was left to gather.
        let body: PreparedSyncBatch?
        /// The batch after it, gathered (not built) while its body was built, from the anchors it leaves; `nil`
        /// when it is short, or when that gathering failed or was cancelled (the batch is then gathered when its
        /// turn comes, and any error is thrown there).
        let following: Gathering?

        /// Removes its temp body, if any.
        func discard() {
            body?.remove()
        }
    }

    /// A batch's changes gathered ahead from the anchors `since`, not built.
    struct Gathering: Sendable {
        let since: [String: HealthQueryAnchor]
        let gathered: Gathered
    }

    /// Sends every change from the anchors on, batch after batch, pipelined: while a batch is made durable
    /// (``persist(_:body:)``), sent and committed, the batch after it is built in `group` and the one after that
    /// gathered (``lookahead(after:reusing:)``); the batch built ahead is taken up only once the batch before it
    /// is committed (``adopt(_:)``). At most one batch is built and one more gathered ahead, and nothing of either
    /// is written to the state folder before the batch before them is committed: a crash, a failure or a
    /// cancellation leaves the state as the unpipelined run would.
    /// - Throws: The first step's error; the batch prepared ahead, if any, is then cancelled and discarded, and
    ///   the next run sends again from the batch that failed.
    mutating func sendAll(in group: inout ThrowingTaskGroup<Ahead, any Error>) async throws {
        do {
            var next = try await gatherAndBuild()
            var following: Gathering?
            while let (gathered, body) = next {
                let ahead = lookahead(after: gathered, reusing: following)
                following = nil
                if let ahead { group.addTask(operation: ahead) }
                let batch = try await persist(gathered, body: body)
                let receipt = try await send(batch)
                guard try commit(batch, receipt: receipt) == .gatherAgain else { break }
                if ahead != nil, let prepared = try await group.next() {
                    next = try await adopt(prepared)
                    following = prepared.following
                } else {
                    next = try await gatherAndBuild()
                }
            }
        } catch {
            await Self.discardAhead(in: &group)
            throw error
        }
        await Self.discardAhead(in: &group)
    }

    /// The next batch gathered (``gather()``) and built (``build(_:for:)``), or `nil` when nothing is left.
    mutating func gatherAndBuild() async throws -> (Gathered, PreparedSyncBatch)? {
        guard let gathered = try await gather() else { return nil }
        return (gathered, try Self.build(gathered, for: engine))
    }

    /// The work that gathers and builds the batch after `batch`, to run while `batch` is made durable, sent and
    /// committed: from the anchors `batch` leaves once committed, under the next batch ID (drawn now, in batch
    /// order). `reusing`, gathered ahead from those very anchors, is taken as it is (its ID was drawn when it was
    /// gathered); one gathered from other anchors is dropped. While the body is built (on a thread of its own), the
    /// batch after it is gathered (``Ahead/following``), its ID drawn then. It writes nothing durable and tells
    /// ``SyncEngine/lookaheadHook`` once the body is built.
    /// - Returns: The work, or `nil` when nothing may be prepared ahead: `batch` is short (it holds everything
    ///   left, so the run ends with it), or it is a rebuilt legacy batch (answered as a duplicate, its changes go
    ///   again from the same anchors).
    func lookahead(after batch: Gathered, reusing gathering: Gathering?) -> (@Sendable () async throws -> Ahead)? {
        guard !batch.resendsLegacyBatch, batch.changeCount >= engine.batchSize else { return nil }
        let since = state.anchors.merging(Self.endAnchors(of: batch.sections)) { _, end in end }
        let engine = engine
        let reused = gathering.flatMap { $0.since == since ? $0.gathered : nil }
        let batchID = reused?.batchID ?? engine.makeBatchID()
        return {
            let gathered: Gathered
            if let reused {
                gathered = reused
            } else {
                gathered = try await Self.collect(
                    for: engine, since: SyncState(anchors: since), batchID: batchID, resendsLegacyBatch: false)
            }
            guard gathered.changeCount > 0 else {
                return Ahead(since: since, gathered: gathered, body: nil, following: nil)
            }
            async let built = Self.aside { try SyncRun.build(gathered, for: engine) }
            let following = await Self.gatherFollowing(gathered, since: since, for: engine)
            let body = try await built
            engine.lookaheadHook?(gathered.batchID)
            return Ahead(since: since, gathered: gathered, body: body, following: following)
        }
    }

    /// The batch after `batch` (gathered from `since`), gathered from the anchors `batch` leaves under a new batch
    /// ID; `nil` when `batch` is short, or when the gathering throws (a store error or a cancellation): that batch
    /// is then gathered again when its turn comes, where the error is thrown.
    static func gatherFollowing(
        _ batch: Gathered, since: [String: HealthQueryAnchor], for engine: SyncEngine
    ) async -> Gathering? {
        guard batch.changeCount >= engine.batchSize else { return nil }
        let after = since.merging(endAnchors(of: batch.sections)) { _, end in end }
        let gathered = try? await collect(
            for: engine, since: SyncState(anchors: after), batchID: engine.makeBatchID(), resendsLegacyBatch: false)
        return gathered.map { Gathering(since: after, gathered: $0) }
    }

    /// Takes up the batch prepared ahead once the batch before it is committed. When the state's anchors are the
    /// ones it was gathered from, it is the next batch (its ``SyncCheckpoint/gathered(_:)`` is passed now) or,
    /// empty, the end of the run (``endOfChanges()``); otherwise it is discarded and the next batch gathered
    /// afresh.
    /// - Returns: The next batch and its body, or `nil` when nothing is left.
    /// - Throws: `CancellationError` when the run is cancelled (the batch is discarded), or the state's save.
    mutating func adopt(_ ahead: Ahead) async throws -> (Gathered, PreparedSyncBatch)? {
        guard ahead.since == state.anchors, state.pending == nil, state.pendingBatchID == nil else {
            ahead.discard()
            return try await gatherAndBuild()
        }
        do {
            try Task.checkCancellation()
            guard let body = ahead.body else {
                try endOfChanges()
                return nil
            }
            engine.checkpointHook?(.gathered(ahead.gathered.batchID))
            return (ahead.gathered, body)
        } catch {
            ahead.discard()
            throw error
        }
    }

    /// Cancels the batch being prepared ahead, if any, waits for it and discards it.
    static func discardAhead(in group: inout ThrowingTaskGroup<Ahead, any Error>) async {
        group.cancelAll()
        while let result = await group.nextResult() {
            if case .success(let ahead) = result { ahead.discard() }
        }
    }
}
