import FlowKit
import Foundation
import HealthFlow
import Testing

@testable import HealthSync

/// The steps of a sync run, each on its own: fill, gather, serialize, send, commit, resume.
struct SyncRunTests {
    @Test func fillTakesTypesInOrderTrimsTheTypeThatOverflowsAndLeavesTheRest() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(3) + SyncEngineBench.steps(5, first: 100))

        let sections = try await SyncRun.fill(
            [.heartRate, .stepCount], from: bench.store, since: SyncState(), limit: 5)
        #expect(sections.map(\.type) == [.heartRate, .stepCount])
        #expect(sections.map(\.count) == [3, 2])

        var state = SyncState()
        for section in sections { state.anchors[section.type.identifier] = section.changes.newAnchor }
        let rest = try await SyncRun.fill([.heartRate, .stepCount], from: bench.store, since: state, limit: 5)
        #expect(rest.map(\.count) == [0, 3])

        let full = try await SyncRun.fill([.heartRate, .stepCount], from: bench.store, since: SyncState(), limit: 3)
        #expect(full.map(\.type) == [.heartRate])
    }

    /// Batches of 7 over three pending types (10 + 12 + 9 changes): every change is read exactly once, into the
    /// batch that sends it — never k × 7 reads to keep 7.
    @Test func fillReadsEachChangeOnceAcrossBatchesOfManyPendingTypes() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try await bench.store.requestAuthorization(toShare: [.restingHeartRate], read: [.restingHeartRate])
        try bench.store.ingest(
            try SyncEngineBench.heartRates(10) + SyncEngineBench.steps(12, first: 100)
                + SyncEngineBench.heartRates(9, first: 200).map { sample in
                    guard case .quantity(let heart) = sample else { return sample }
                    return .quantity(
                        try HealthQuantitySample(
                            type: .restingHeartRate, quantity: heart.quantity, date: heart.startDate,
                            source: heart.source, uuid: heart.uuid))
                })
        let types: [HealthObjectType] = [.heartRate, .stepCount, .restingHeartRate]
        var state = SyncState()
        var reads = 0
        var batches: [[Int]] = []
        while true {
            let sections = try await SyncRun.fill(types, since: state, limit: 7) { type, anchor, room in
                let changes = try await bench.store.changes(of: type, since: anchor, limit: room)
                reads += changes.samples.count + changes.deletedObjects.count
                return changes
            }
            for section in sections { state.anchors[section.type.identifier] = section.changes.newAnchor }
            let counts = sections.map(\.count)
            if counts.reduce(0, +) == 0 { break }
            batches.append(counts)
        }
        #expect(reads == 31)
        #expect(batches == [[7], [3, 4], [0, 7], [0, 1, 6], [0, 0, 3]])
    }

    @Test func gatherWritesNothingAndSerializeMakesTheBatchPendingBeforeAnySend() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(2))
        var run = try SyncRun(engine: bench.engine())

        let gathered = try #require(try await run.gather())
        #expect(gathered.changeCount == 2)
        #expect(!gathered.resendsLegacyBatch)
        #expect(gathered.checkpoint != nil)
        #expect(try bench.anchors.load() == SyncState())

        let batch = try await run.serialize(gathered)
        let saved = try bench.anchors.load()
        #expect(saved.pending == batch.record)
        #expect(saved.pendingBatchID == gathered.batchID)
        #expect(saved.checkpoint == gathered.checkpoint)
        #expect(saved.anchors.isEmpty)
        let file = try Data(contentsOf: URL(fileURLWithPath: batch.path.description))
        #expect(Int64(file.count) > batch.record.bodyLength, "the body, then the record that makes it pending")
        #expect(file.prefix(Int(batch.record.bodyLength)) == (try batch.prepared?.request.body.makeData()))
        #expect(try bench.outbox.storedBatchIDs().isEmpty)
        batch.prepared?.remove()
    }

    /// A full batch (3 of 3) may leave changes behind: its commit is saved with whatever follows (here the empty
    /// gather that ends the run); a short one (2 of 3) was everything and is saved at once.
    @Test(arguments: [(3, SyncRun.Outcome.gatherAgain), (2, .finished)])
    func commitAdvancesTheAnchorsAndClearsThePendingBatchInOneSave(count: Int, outcome: SyncRun.Outcome)
        async throws
    {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(count))
        var run = try SyncRun(engine: bench.engine(batchSize: 3))
        let batch = try await run.serialize(try #require(try await run.gather()))
        let receipt = try await run.send(batch)
        #expect(try bench.anchors.load().pending == batch.record)

        #expect(try run.commit(batch, receipt: receipt) == outcome)
        #expect(run.state.pending == nil && run.state.anchors == batch.record.endAnchors)
        if outcome == .gatherAgain {
            #expect(try bench.anchors.load().pending == batch.record, "not yet saved: a crash re-sends it")
            #expect(FileManager.default.fileExists(atPath: batch.path.description))
            #expect(try await run.gather() == nil)
        }
        let saved = try bench.anchors.load()
        #expect(saved.pending == nil)
        #expect(saved.pendingBatchID == nil)
        #expect(saved.anchors == batch.record.endAnchors)
        #expect(!FileManager.default.fileExists(atPath: batch.path.description))
        #expect(run.report.batchIDs == [batch.record.batchID])
        #expect(run.report.samples == ["heartRate": count])
        #expect(try await run.gather() == nil)
    }

    /// After a full batch, the next batch's one save records both the commit and the new pending batch, and only
    /// then is the committed batch's body file deleted.
    @Test func theNextBatchsPendingSaveMakesTheLastCommitDurableAndThenDeletesItsBody() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        var run = try SyncRun(engine: bench.engine(batchSize: 3))
        let first = try await run.serialize(try #require(try await run.gather()))
        #expect(try run.commit(first, receipt: try await run.send(first)) == .gatherAgain)
        #expect(run.unsavedCommit?.path == first.path)

        let second = try await run.serialize(try #require(try await run.gather()))
        let saved = try bench.anchors.load()
        #expect(saved.anchors == first.record.endAnchors)
        #expect(saved.pending == second.record)
        #expect(run.unsavedCommit == nil)
        #expect(!FileManager.default.fileExists(atPath: first.path.description))
        #expect(FileManager.default.fileExists(atPath: second.path.description))
        #expect(try run.commit(second, receipt: try await run.send(second)) == .finished)
        #expect(try bench.anchors.load().anchors["heartRate"] == second.record.endAnchors["heartRate"])
        #expect(try bench.anchors.load().pending == nil)
    }

    @Test func resumePendingResendsTheDurableBodyByteForByteAndCommitsIt() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(2))
        let rejecting = SyncEngineRejectingTransport()
        var first = try SyncRun(engine: bench.engine(transport: rejecting))
        let batch = try await first.serialize(try #require(try await first.gather()))
        let body = try Data(contentsOf: URL(fileURLWithPath: batch.path.description))
            .prefix(Int(batch.record.bodyLength))
        do {
            _ = try await first.send(batch)
            Issue.record("the rejecting transport accepted the batch")
        } catch is SyncEngineRejectingTransport.Rejected {}
        #expect(try bench.anchors.load().pending == batch.record)

        var second = try SyncRun(engine: bench.engine())
        try await second.resumePending()
        let delivered = bench.outbox.directory.appendingPathComponent(batch.record.batchID.uuidString + ".multipart")
        #expect(try Data(contentsOf: delivered) == body)
        #expect(rejecting.attempts.map(\.body) == [body])
        #expect(second.report.batchIDs == [batch.record.batchID])
        #expect(second.state.pending == nil)
        #expect(try bench.anchors.load().anchors == batch.record.endAnchors)
    }

    @Test(arguments: ["state", "temp"])
    func aFolderThatCannotBeCreatedIsNamedInTheError(blocked: String) async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let blocker = bench.folder.url.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: blocker)
        let unmakeable = blocker.appendingPathComponent(blocked)
        let engine = try SyncEngine(
            store: bench.store, types: SyncEngineBench.types, anchorStore: bench.anchors, transport: bench.outbox,
            deviceID: "device-1", tempFolder: blocked == "temp" ? unmakeable : bench.tempURL,
            stateFolder: blocked == "state" ? unmakeable : bench.folder.url)

        let expected: SyncEngineError =
            blocked == "state"
            ? .stateFolder(path: unmakeable.path, reason: "not a directory")
            : .tempFolder(path: unmakeable.path, reason: "not a directory")
        await #expect(throws: expected) { try await engine.sync() }
    }

    @Test func aStateFolderErrorSaysItIsTheStateFolder() {
        #expect(
            SyncEngineError.stateFolder(path: "/data/sync", reason: "cannot be created").description
                == "state folder /data/sync unusable: cannot be created")
    }
}
