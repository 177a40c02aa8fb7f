import FlowKit
import Foundation
import HealthFlow
import Testing

@_spi(Testing) @testable import HealthSync

/// The run's pipeline: the batch after the one in flight is gathered and built ahead, and taken up only once the
/// batch before it is committed.
struct SyncPipelineTests {
    /// An engine over `bench` whose batch IDs are `SyncFixtures.uuid(firstID…)` in the order they are drawn (each
    /// told to `onDraw`), its checkpoints noted in `trace` and the batches it builds ahead in `ahead`.
    static func engine(
        _ bench: SyncEngineBench, transport: any UploadTransport, batchSize: Int, firstID: Int = 1,
        trace: PendingBatchFileTests.Trace, ahead: PendingBatchFileTests.Trace,
        onAhead: @escaping @Sendable (UUID) -> Void = { _ in }, onDraw: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws -> SyncEngine {
        let drawn = LockedState(firstID)
        var engine = try SyncEngine(
            store: bench.store, types: SyncEngineBench.types, anchorStore: bench.anchors, transport: transport,
            deviceID: "device-1", batchSize: batchSize, tempFolder: bench.tempURL, inMemoryLimit: 0,
            makeBatchID: {
                let number = drawn.withLock { next in
                    defer { next += 1 }
                    return next
                }
                onDraw(number)
                return SyncFixtures.uuid(number)
            }, now: { SyncFixtures.nine }
        ).reportingCheckpoints { trace.note("\($0.name) \($0.batchID)") }
        engine.lookaheadHook = { id in
            ahead.note(id.uuidString)
            onAhead(id)
        }
        return engine
    }

    /// The names of the pending batch files (and their temp files) in the bench's state folder.
    static func pendingFiles(_ bench: SyncEngineBench) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: bench.folder.url.path).filter { $0.contains(".pending-") }
            .sorted()
    }

    /// Nine changes in batches of 3: three batches in ID order, each holding the three changes after the batch
    /// before it, each batch's checkpoints complete before the next batch's `gathered`; batches 2 and 3 are built
    /// ahead, and the empty gathering after batch 3 ends the run.
    @Test func pipelinedBatchesGoOutInOrderEachFromTheAnchorsTheOneBeforeLeft() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(9))
        let (trace, ahead) = (PendingBatchFileTests.Trace(), PendingBatchFileTests.Trace())
        let engine = try Self.engine(bench, transport: bench.outbox, batchSize: 3, trace: trace, ahead: ahead)

        let report = try await engine.sync()

        let ids = (1...3).map(SyncFixtures.uuid)
        #expect(report.batchIDs == ids)
        #expect(report.totalSamples == 9 && report.duplicates == 0)
        for (index, id) in ids.enumerated() {
            let expected = (1...3).map { SyncFixtures.uuid(index * 3 + $0) }
            #expect(try bench.deliveredBatch(id).sampleUUIDs == expected)
        }
        let perBatch = ["gathered", "written", "renamed", "persisted", "acknowledged", "committed"]
        #expect(
            trace.all
                == ids.flatMap { id in perBatch.map { "\($0) \(id)" } }
                + ["state-written \(ids[2])", "state-renamed \(ids[2])"])
        #expect(ahead.all == [ids[1].uuidString, ids[2].uuidString])
        let saved = try bench.anchors.load()
        #expect(saved.pending == nil && saved.anchors.keys.sorted() == ["heartRate"])
        #expect(try Self.pendingFiles(bench).isEmpty)
        #expect(try bench.tempFiles().isEmpty)

        let again = try await engine.sync()
        #expect(again.batches == 0)
    }

    /// While batch 2 is built ahead, batch 3 is gathered (its ID drawn before batch 2's body is done), and the
    /// work ahead of batch 3 takes that gathering up as it is and only builds it: twelve changes in batches of 3
    /// draw five IDs (four batches and the empty gathering that ends the run), each batch gathered once.
    @Test func theBatchAfterTheOneBuiltAheadIsGatheredMeanwhileAndTakenUpWithoutGatheringAgain() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(12))
        let (trace, ahead, order) = (
            PendingBatchFileTests.Trace(), PendingBatchFileTests.Trace(), PendingBatchFileTests.Trace()
        )
        let engine = try Self.engine(
            bench, transport: bench.outbox, batchSize: 3, trace: trace, ahead: ahead,
            onAhead: { order.note("built \($0)") }, onDraw: { order.note("drawn \(SyncFixtures.uuid($0))") })

        let report = try await engine.sync()

        let ids = (1...5).map(SyncFixtures.uuid)
        #expect(report.batchIDs == Array(ids[0..<4]))
        #expect(
            order.all == [
                "drawn \(ids[0])", "drawn \(ids[1])", "drawn \(ids[2])", "built \(ids[1])", "drawn \(ids[3])",
                "built \(ids[2])", "drawn \(ids[4])", "built \(ids[3])",
            ])
        for (index, id) in ids[0..<4].enumerated() {
            let expected = (1...3).map { SyncFixtures.uuid(index * 3 + $0) }
            #expect(try bench.deliveredBatch(id).sampleUUIDs == expected)
        }
        #expect(try Self.pendingFiles(bench).isEmpty)
        #expect(try bench.tempFiles().isEmpty)
    }

    /// Only a full batch has a batch built after it; a batch built ahead from anchors the state does not hold (here
    /// the batch before it was never committed) is discarded, its temp body removed, and the next batch is gathered
    /// afresh from the state's anchors.
    @Test func aBatchBuiltAheadFromOtherAnchorsIsDiscardedAndTheNextBatchGatheredAfresh() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        var run = try SyncRun(engine: bench.engine(batchSize: 3))
        let first = try #require(try await run.gather())
        let work = try #require(run.lookahead(after: first, reusing: nil))
        let ahead = try await work()
        #expect(ahead.gathered.sections.map(\.count) == [2, 0])
        #expect(try bench.tempFiles().count == 1)
        let afterShort = run.lookahead(after: ahead.gathered, reusing: nil)
        #expect(afterShort == nil, "a short batch ends the run")
        let staged = try #require(await ahead.staging?.value, "its pending batch file is staged")
        #expect(try Self.pendingFiles(bench) == [staged.file.tempPath.lastComponent.description])

        let (next, body, staging) = try #require(try await run.adopt(ahead))
        defer { body.remove() }
        #expect(staging == nil)
        #expect(try Self.pendingFiles(bench).isEmpty, "the staged file is removed")
        #expect(next.batchID != ahead.gathered.batchID && next.batchID != first.batchID)
        #expect(next.sections.map(\.count) == [3])
        #expect(try bench.tempFiles().count == 1)
        #expect(try bench.tempFiles().allSatisfy { $0.contains(next.batchID.uuidString) })
        #expect(try bench.anchors.load() == SyncState(), "nothing was written to the state")
    }

    /// The work ahead takes up a batch gathered earlier only when it was gathered from the anchors the batch in
    /// flight leaves (built under its ID, not gathered again); one gathered from other anchors is gathered afresh.
    @Test func aBatchGatheredAheadIsTakenUpOnlyFromTheAnchorsTheBatchInFlightLeaves() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        let run = try SyncRun(engine: bench.engine(batchSize: 3))
        let first = try await SyncRun.collect(
            for: run.engine, since: run.state, batchID: SyncFixtures.uuid(1), resendsLegacyBatch: false)
        let stale = SyncRun.Gathering(since: [:], gathered: first)

        let gatherAfresh = try #require(run.lookahead(after: first, reusing: stale))
        let fresh = try await gatherAfresh()
        #expect(fresh.gathered.batchID != first.batchID)
        #expect(fresh.gathered.sections.map(\.count) == [2, 0] && fresh.body != nil)

        let matching = SyncRun.Gathering(since: fresh.since, gathered: first)
        let takeUp = try #require(run.lookahead(after: first, reusing: matching))
        let reused = try await takeUp()
        #expect(reused.gathered.batchID == first.batchID, "taken up as it was gathered")
        #expect(reused.body != nil && reused.following?.gathered.changeCount == 2)
        await fresh.discard()
        await reused.discard()
        #expect(try Self.pendingFiles(bench).isEmpty && bench.tempFiles().isEmpty, "discarding leaves nothing")
    }

    /// The batch after the one built ahead is built too, queued on the build thread right behind it, so the
    /// thread goes from one build to the next: the work ahead of it takes that very body up (the same temp file,
    /// not built again), and a body built from anchors the batch in flight does not leave is removed, unread.
    @Test func theBatchAfterTheOneBuiltAheadIsBuiltBehindItAndTakenUpWithoutBuildingAgain() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(9))
        let run = try SyncRun(engine: bench.engine(batchSize: 3))
        let first = try await SyncRun.collect(
            for: run.engine, since: run.state, batchID: SyncFixtures.uuid(1), resendsLegacyBatch: false)
        let secondWork = try #require(run.lookahead(after: first, reusing: nil))
        let second = try await secondWork()
        let following = try #require(second.following)
        let building = try #require(following.build, "the batch after it is being built")
        let built = try await building.value
        let builtFile = try #require(built.tempFile)
        #expect(built.request.batchID == following.gathered.batchID)
        #expect(try bench.tempFiles().contains(builtFile.lastComponent.description))

        let thirdWork = try #require(run.lookahead(after: second.gathered, reusing: following))
        let third = try await thirdWork()
        #expect(third.gathered.batchID == following.gathered.batchID)
        #expect(third.body?.tempFile == builtFile, "the body built behind the batch before is taken up")
        #expect(
            third.following?.gathered.changeCount == 0 && third.following?.build == nil,
            "nothing is left after batch 3, and nothing is built for the empty gathering")

        let stale = SyncRun.Gathering(
            since: [:], gathered: first, build: SyncRun.startBuild(of: first, for: run.engine, on: run.workers.build))
        let staleBuild = try #require(stale.build)
        let staleFile = try #require(try await staleBuild.value.tempFile)
        let afreshWork = try #require(run.lookahead(after: first, reusing: stale))
        let afresh = try await afreshWork()
        #expect(afresh.gathered.batchID != first.batchID)
        #expect(!FileManager.default.fileExists(atPath: staleFile.description), "the stale body is removed")

        for ahead in [second, third, afresh] { await ahead.discard() }
        #expect(try Self.pendingFiles(bench).isEmpty && bench.tempFiles().isEmpty, "discarding leaves nothing")
    }

    /// A batch prepared ahead has its pending batch file staged (written and `fsync`ed under a temp name) while the
    /// batch before it is in flight; persisting it renames that file into place: one `fsync` (the folder's) where
    /// a file written whole costs two. A staged file that records another state (here a sequence one too far: it
    /// was planned after the batch before it was persisted) is removed, and the file written whole.
    @Test func aPendingFileStagedAheadIsRenamedIntoPlaceOnlyWhenItRecordsTheStateFound() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(9))
        var run = try SyncRun(engine: bench.engine(batchSize: 3))
        let first = try #require(try await run.gather())
        let secondWork = try #require(run.lookahead(after: first, reusing: nil))
        let secondAhead = try await secondWork()
        let staged = try #require(await secondAhead.staging?.value)
        let batch = try await run.persist(first, body: SyncRun.build(first, for: run.engine))
        _ = try run.commit(batch, receipt: try await run.send(batch))
        let (second, body, staging) = try #require(try await run.adopt(secondAhead))

        let fsyncs = PendingBatchFileTests.Trace()
        let durable = try await AtomicFile.$fsyncObserver.withValue({ fsyncs.note("\($0.lastComponent)") }) {
            try await run.persist(second, body: body, staging: staging)
        }

        let folder = bench.folder.url.lastPathComponent
        #expect(fsyncs.all == [folder])
        #expect(durable.path == staged.file.destination)
        #expect(!FileManager.default.fileExists(atPath: staged.file.tempPath.description))
        let state = try bench.anchors.load()
        #expect(state.pending == durable.record && state.anchors == secondAhead.since)

        let thirdWork = try #require(run.lookahead(after: second, reusing: nil))
        _ = try run.commit(durable, receipt: try await run.send(durable))
        let thirdAhead = try await thirdWork()
        let misplanned = try #require(await thirdAhead.staging?.value)
        let (third, thirdBody, thirdStaging) = try #require(try await run.adopt(thirdAhead))
        fsyncs.note("third")
        let written = try await AtomicFile.$fsyncObserver.withValue({ fsyncs.note("\($0.lastComponent)") }) {
            try await run.persist(third, body: thirdBody, staging: thirdStaging)
        }

        let whole = Array(fsyncs.all.drop { $0 != "third" }.dropFirst())
        #expect(whole.count == 2 && whole.last == folder && whole.first != "\(misplanned.file.tempPath.lastComponent)")
        #expect(!FileManager.default.fileExists(atPath: misplanned.file.tempPath.description))
        #expect(try bench.anchors.load().pending == written.record)
    }

    /// A pending batch file staged ahead and left behind (a crash before its rename) is never state: the next run's
    /// start removes it, leaves the files whose names the engine does not generate, and sends every change once.
    @Test func aStagedPendingFileLeftByACrashIsRemovedAtTheNextStartAndOtherFilesStay() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(6))
        let engine = try bench.engine(batchSize: 3)
        var run = try SyncRun(engine: engine)
        let first = try #require(try await run.gather())
        let work = try #require(run.lookahead(after: first, reusing: nil))
        let ahead = try await work()
        let staged = try #require(await ahead.staging?.value)
        ahead.body?.remove()
        let others = ["notes.txt", ".sync-state.json.notes", "sync-state.json.pendingX"]
        for name in others {
            try Data("kept".utf8).write(to: bench.folder.url.appendingPathComponent(name))
        }
        #expect(try Self.pendingFiles(bench) == [staged.file.tempPath.lastComponent.description])

        _ = try SyncRun(engine: engine)

        #expect(try Self.pendingFiles(bench).isEmpty)
        #expect(Set(others).isSubset(of: try bench.folder.names()))
        #expect(try bench.anchors.load() == SyncState())
        let report = try await engine.sync()
        #expect(report.totalSamples == 6 && report.duplicates == 0)
        #expect(Set(try bench.deliveredUUIDs().samples) == Set((1...6).map(SyncFixtures.uuid)))
    }

    /// Batch 2 fails once batch 3 is built ahead: batch 3 is thrown away (never `gathered`, no pending file, its
    /// temp body removed), batch 2 stays pending with batch 1's commit, and the next run sends batch 2 first,
    /// under its own ID, then the rest: every change once.
    @Test func aFailureOfTheBatchInFlightDiscardsTheBatchPreparedAheadAndTheNextRunResendsIt() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(8))
        let (trace, ahead) = (PendingBatchFileTests.Trace(), PendingBatchFileTests.Trace())
        let (first, second, third) = (SyncFixtures.uuid(1), SyncFixtures.uuid(2), SyncFixtures.uuid(3))
        let gate = FailingAfterAheadTransport(
            inner: bench.outbox, failing: second, ahead: third, tempFolder: bench.tempURL)
        let engine = try Self.engine(
            bench, transport: gate, batchSize: 3, trace: trace, ahead: ahead, onAhead: gate.built)

        await #expect(throws: FailingAfterAheadTransport.Failed.self) { try await engine.sync() }

        #expect(ahead.all == [second.uuidString, third.uuidString])
        #expect(gate.tempFilesAtFailure.contains { $0.contains(third.uuidString) }, "batch 3 was built ahead")
        #expect(trace.all.filter { $0.hasPrefix("gathered") } == ["gathered \(first)", "gathered \(second)"])
        let state = try bench.anchors.load()
        #expect(state.pending?.batchID == second)
        #expect(state.anchors["heartRate"] != nil, "batch 1 is committed")
        #expect(try Self.pendingFiles(bench).count == 1)
        #expect(try Self.pendingFiles(bench).allSatisfy { $0.contains(second.uuidString) })
        #expect(try bench.tempFiles().isEmpty)
        #expect(try bench.outbox.storedBatchIDs() == [first])

        let resumed = try await Self.engine(
            bench, transport: bench.outbox, batchSize: 3, firstID: 10, trace: trace, ahead: ahead
        ).sync()
        #expect(resumed.batchIDs == [second, SyncFixtures.uuid(10)])
        #expect(resumed.duplicates == 0)
        let delivered = try bench.deliveredUUIDs().samples
        #expect(delivered.count == 8 && Set(delivered) == Set((1...8).map(SyncFixtures.uuid)))
        #expect(try bench.tempFiles().isEmpty)
    }

    /// The run is cancelled once batch 3 is built ahead, while batch 2 is in flight: the run throws
    /// `CancellationError`, batch 3 leaves nothing behind, and batch 2 stays pending for the next run.
    @Test func cancellingTheRunWithABatchPreparedAheadDiscardsItAndKeepsTheBatchInFlightPending() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(8))
        let (trace, ahead) = (PendingBatchFileTests.Trace(), PendingBatchFileTests.Trace())
        let task = LockedState<Task<SyncReport, any Error>?>(nil)
        let (second, third) = (SyncFixtures.uuid(2), SyncFixtures.uuid(3))
        let gate = FailingAfterAheadTransport(
            inner: bench.outbox, failing: second, ahead: third, tempFolder: bench.tempURL,
            cancel: { task.withLock { $0 }?.cancel() })
        let engine = try Self.engine(
            bench, transport: gate, batchSize: 3, trace: trace, ahead: ahead, onAhead: gate.built)

        let run = task.withLock { slot in
            let run = Task { try await engine.sync() }
            slot = run
            return run
        }
        await #expect(throws: CancellationError.self) { try await run.value }

        #expect(ahead.all.last == third.uuidString)
        #expect(gate.tempFilesAtFailure.contains { $0.contains(third.uuidString) }, "batch 3 was built ahead")
        #expect(!trace.all.contains("gathered \(third)"))
        #expect(try bench.anchors.load().pending?.batchID == second)
        #expect(try Self.pendingFiles(bench).count == 1)
        #expect(try bench.tempFiles().isEmpty)
        #expect(try bench.outbox.storedBatchIDs() == [SyncFixtures.uuid(1)])

        let resumed = try await Self.engine(
            bench, transport: bench.outbox, batchSize: 3, firstID: 10, trace: trace, ahead: ahead
        ).sync()
        #expect(resumed.batchIDs.first == second)
        #expect(Set(try bench.deliveredUUIDs().samples).count == 8)
    }
}

/// Forwards to another transport, but the upload of batch `failing` fails only once batch `ahead` was built ahead
/// (``built(_:)``), whichever of the two comes first: rejected with ``Failed``, or, given `cancel`, left unanswered
/// while `cancel` runs (the run must then end in `CancellationError`). Notes the temp files present when it fails.
final class FailingAfterAheadTransport: UploadTransport {
    struct Failed: Error {}
    private struct Gate {
        var aheadBuilt = false
        var waiting: Resolver<UploadReceipt>?
        var tempFiles: [String] = []
    }

    let inner: any UploadTransport
    let failing: UUID
    let ahead: UUID
    let tempFolder: URL
    let cancel: (@Sendable () -> Void)?
    private let gate = LockedState(Gate())

    init(
        inner: any UploadTransport, failing: UUID, ahead: UUID, tempFolder: URL,
        cancel: (@Sendable () -> Void)? = nil
    ) {
        self.inner = inner
        self.failing = failing
        self.ahead = ahead
        self.tempFolder = tempFolder
        self.cancel = cancel
    }

    var tempFilesAtFailure: [String] { gate.withLock { $0.tempFiles } }

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        guard request.batchID == failing else { return inner.upload(request) }
        let (promise, resolver) = Promise<UploadReceipt>.pending()
        let ready = gate.withLock { gate in
            if !gate.aheadBuilt { gate.waiting = resolver }
            return gate.aheadBuilt
        }
        if ready { fail(resolver) }
        return promise
    }

    /// Told the ID of each batch built ahead.
    func built(_ id: UUID) {
        guard id == ahead else { return }
        let waiting = gate.withLock { gate in
            defer { gate.waiting = nil }
            gate.aheadBuilt = true
            return gate.waiting
        }
        if let waiting { fail(waiting) }
    }

    private func fail(_ resolver: Resolver<UploadReceipt>) {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: tempFolder.path)) ?? []
        gate.withLock { $0.tempFiles = files }
        if let cancel { cancel() } else { resolver.reject(Failed()) }
    }
}
