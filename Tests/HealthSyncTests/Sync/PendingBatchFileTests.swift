import FlowKit
import Foundation
import HealthFlow
import Testing

@_spi(Testing) @testable import HealthSync

/// A batch is made pending by one file holding its body and the state that records it: two `fsync`s per batch
/// (counted through ``AtomicFile/fsyncObserver``), and ``AnchorStore/load()`` gives the true state from the state
/// file and the newest pending batch file.
@Suite struct PendingBatchFileTests {
    /// What a run did, in order: each checkpoint it passed (`name`) and each `fsync` (`fsync <file name>`).
    final class Trace: Sendable {
        private let events = LockedState<[String]>([])
        var all: [String] { events.withLock { $0 } }

        func note(_ event: String) {
            events.withLock { $0.append(event) }
        }

        /// The events of each batch: from its `gathered` to the next batch's (the last holds the run's end).
        var batches: [[String]] {
            all.reduce(into: [[String]]()) { batches, event in
                if event == "gathered" || batches.isEmpty { batches.append([]) }
                batches[batches.count - 1].append(event)
            }
        }
    }

    /// Runs `engine` with every checkpoint and `fsync` noted in `trace`.
    static func run(_ engine: SyncEngine, into trace: Trace) async throws -> SyncReport {
        try await AtomicFile.$fsyncObserver.withValue({ path in trace.note("fsync \(path.lastComponent)") }) {
            try await engine.reportingCheckpoints { trace.note($0.name) }.sync()
        }
    }

    @Test func aFullBatchCostsTwoFsyncsAndTheRunTwoMoreForTheStateFile() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(7))
        let trace = Trace()
        let report = try await Self.run(try bench.engine(transport: AcceptingTransport(), batchSize: 3), into: trace)
        #expect(report.batches == 3 && report.totalSamples == 7)

        // A batch prepared ahead has its pending file staged (written, `fsync`ed) while the batch before it is in
        // flight, so that `fsync` falls in either batch's events: each pending file's is checked apart.
        let folder = bench.folder.url.lastPathComponent
        let files = trace.all.filter { $0.hasPrefix("fsync .sync-state.json.pending-") }
        #expect(files.count == 3 && Set(files).count == 3 && files.allSatisfy { $0.contains(".tmp-") }, "\(files)")
        #expect(trace.all.filter { $0.hasPrefix("fsync ") }.count == 3 * 2 + 2)
        let batches = trace.batches.map { $0.filter { !files.contains($0) } }
        #expect(batches.count == 3)
        for events in batches {
            #expect(Array(events.prefix(5)) == ["gathered", "written", "renamed", "fsync \(folder)", "persisted"])
        }
        #expect(Array(batches[0].dropFirst(5)) == ["acknowledged", "committed"])
        #expect(Array(batches[1].dropFirst(5)) == ["acknowledged", "committed"])
        let last = batches[2].filter { $0.hasPrefix("fsync ") }
        #expect(last.count == 3, "the last batch's folder, and the run's state file save: \(last)")
        #expect(last.last == "fsync \(folder)")
        #expect(last[1].hasPrefix("fsync .sync-state.json.tmp-"))
        #expect(
            Array(batches[2].dropFirst(5))
                == ["acknowledged", last[1], "state-written", "state-renamed", "fsync \(folder)", "committed"])
        #expect(!(try bench.folder.names()).contains { $0.contains(".pending-") || $0.contains(".tmp-") })
    }

    /// A batch prepared ahead also has its body staged in the outbox (written and `fsync`ed under a temp name) on a
    /// thread of the run's while the batch before it is in flight, so that delivering it, once it is pending, takes
    /// one `fsync` (the outbox folder's) where a body written whole takes two. The first batch, not prepared ahead,
    /// is written whole. The staging starts before the batch is pending but may end after (a loaded machine, a
    /// sanitizer): the send waits for it, so what is checked is the one staging and the one `fsync` after it.
    @Test func aBodyStagedInTheOutboxAheadLeavesOneFsyncBetweenPendingAndDelivered() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(7))
        let trace = Trace()
        let report = try await Self.run(try bench.engine(batchSize: 3), into: trace)
        #expect(report.batches == 3 && report.totalSamples == 7)

        let events = trace.all
        let persisted = events.indices.filter { events[$0] == "persisted" }
        let acknowledged = events.indices.filter { events[$0] == "acknowledged" }
        #expect(persisted.count == 3 && acknowledged.count == 3)
        let outboxFolder = "fsync \(bench.outbox.directoryPath.lastComponent)"
        for (index, id) in report.batchIDs.enumerated() {
            let body = events.indices.filter { events[$0].hasPrefix("fsync .\(id.uuidString).multipart.tmp-") }
            func onTheWay(from start: Int) -> [String] {
                events[start..<acknowledged[index]].filter {
                    $0 == outboxFolder || $0.contains(id.uuidString + ".multipart.tmp-")
                }
            }
            if index == 0 {
                // Written whole by the outbox's own upload, on its queue, which the observer does not follow.
                #expect(body.isEmpty && onTheWay(from: persisted[index]).isEmpty, "\(events)")
            } else {
                #expect(body.count == 1 && body[0] < acknowledged[index], "staged once, then delivered: \(events)")
                let start = max(persisted[index], (body.first ?? persisted[index]) + 1)
                #expect(onTheWay(from: start) == [outboxFolder], "\(events)")
            }
        }
        #expect(try bench.outbox.storedBatchIDs() == report.batchIDs.sorted { $0.uuidString < $1.uuidString })
        for (index, id) in report.batchIDs.enumerated() {
            #expect(try bench.deliveredBatch(id).sampleUUIDs.count == (index < 2 ? 3 : 1))
        }
        let outboxNames = try FileManager.default.contentsOfDirectory(atPath: bench.outbox.directory.path)
        #expect(!outboxNames.contains { $0.hasPrefix(".") }, "no staged body is left: \(outboxNames)")
    }

    /// The blocking steps of a run run on threads started once for the run: every batch is made durable on the same
    /// thread, however many batches there are.
    @Test func everyBatchIsMadeDurableOnTheOneThreadTheRunKeepsForIt() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(10))
        let threads = LockedState<[UInt64]>([])
        let engine = try bench.engine(batchSize: 2).reportingCheckpoints { checkpoint in
            if checkpoint.name == "renamed" { threads.withLock { $0.append(SyncWorkerTests.threadID()) } }
        }
        let report = try await engine.sync()
        #expect(report.batches == 5)
        let seen = threads.withLock { $0 }
        #expect(seen.count == 5 && Set(seen).count == 1 && seen[0] != 0, "\(seen)")
    }

    /// With the state folder apart from the state file, each batch also saves the state file, which then records
    /// the pending batch: four `fsync`s per batch, and ``AnchorStore/load()`` still gives the true state.
    @Test func aStateFolderApartFromTheStateFileSavesTheStateFileWithEveryBatch() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        let bodies = bench.folder.url.appendingPathComponent("bodies")
        func engine(_ transport: any UploadTransport) throws -> SyncEngine {
            try SyncEngine(
                store: bench.store, types: SyncEngineBench.types, anchorStore: bench.anchors, transport: transport,
                deviceID: "device-1", batchSize: 3, tempFolder: bench.tempURL, inMemoryLimit: 0, stateFolder: bodies,
                now: { SyncFixtures.nine })
        }
        let trace = Trace()
        await #expect(throws: AcceptingThenFailingTransport.Refused.self) {
            _ = try await Self.run(
                try engine(AcceptingThenFailingTransport(inner: bench.outbox, accepted: 1)), into: trace)
        }
        #expect(trace.batches.map { $0.filter { $0.hasPrefix("fsync ") }.count } == [4, 4])
        let state = try bench.anchors.load()
        let pending = try #require(state.pending)
        #expect(!state.anchors.isEmpty, "the first batch's commit")
        #expect(FileManager.default.fileExists(atPath: bodies.appendingPathComponent(pending.bodyFileName).path))
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: bench.stateURL)) as? [String: Any]
        #expect((saved?["pending"] as? [String: Any])?["bodyFileName"] as? String == pending.bodyFileName)

        let report = try await engine(bench.outbox).sync()
        #expect(report.batchIDs.first == pending.batchID)
        #expect(Set(try bench.deliveredUUIDs().samples).count == 5)
        #expect(try bench.anchors.load().pending == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bodies.path).isEmpty)
    }

    /// A power loss can undo the deletion of a pending batch file after the state file replaced it: the file
    /// comes back, older than the state file, and is ignored, then removed by the next run.
    @Test func aPendingBatchFileOlderThanTheStateFileIsIgnoredAndRemoved() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        let copying = CopyingTransport(inner: bench.outbox, folder: bench.folder.url)
        _ = try await bench.engine(transport: copying, batchSize: 3).sync()
        let final = try bench.anchors.load()
        #expect(final.pending == nil && !final.anchors.isEmpty)
        let copies = copying.copies
        #expect(copies.count == 2)
        for (name, bytes) in copies {
            try bytes.write(to: bench.folder.url.appendingPathComponent(name))
        }

        #expect(try bench.anchors.load() == final)
        #expect(try await bench.engine(batchSize: 3).sync() == SyncReport())
        #expect(!(try bench.folder.names()).contains { $0.contains(".pending-") })
        #expect(try bench.outbox.storedBatchIDs().count == 2)
    }

    /// A power loss before a pending batch file's folder `fsync` can undo its rename; the previous batch's file,
    /// deleted only after that `fsync`, is then still there and is the state: the acknowledged previous batch is
    /// sent again under its ID (a duplicate), and nothing is counted twice.
    @Test func aPendingBatchFileWhoseRenameIsUndoneLeavesThePreviousBatchPending() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(5)
        try bench.store.ingest(hearts)
        let copying = CopyingTransport(inner: bench.outbox, folder: bench.folder.url)
        await #expect(throws: AcceptingThenFailingTransport.Refused.self) {
            try await bench.engine(transport: AcceptingThenFailingTransport(inner: copying, accepted: 1), batchSize: 3)
                .sync()
        }
        let (firstName, firstFile) = try #require(copying.copies.first)
        let second = try #require(try bench.anchors.load().pending)
        try FileManager.default.removeItem(at: bench.folder.url.appendingPathComponent(second.bodyFileName))
        try firstFile.write(to: bench.folder.url.appendingPathComponent(firstName))
        let state = try bench.anchors.load()
        let first = try #require(state.pending)
        #expect(first.bodyFileName == firstName && state.anchors.isEmpty)

        let report = try await bench.engine(batchSize: 3).sync()
        #expect(report.batchIDs.first == first.batchID)
        #expect(report.duplicates == 1)
        let delivered = try bench.deliveredUUIDs().samples
        #expect(delivered.count == 5 && Set(delivered) == Set(hearts.map(\.uuid)))
    }

    /// ``AnchorStore/save(_:)`` replaces what pending batch files beside the state file record.
    @Test func aSavedStateIsWhatLoadGivesEvenBesidePendingBatchFiles() async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        try bench.store.ingest(try SyncEngineBench.heartRates(2))
        await #expect(throws: SyncEngineRejectingTransport.Rejected.self) {
            try await bench.engine(transport: SyncEngineRejectingTransport()).sync()
        }
        #expect(try bench.anchors.load().pending != nil)
        try bench.anchors.save(SyncState())
        #expect(try bench.anchors.load() == SyncState())
    }

    @Test func aStateFolderThatCannotBeListedIsAnErrorNotAnOlderState() throws {
        let folder = FileSystemPath("/state")
        let denied: (FileSystemPath) throws(PathCallFailure) -> [FileSystemPath] = { path throws(PathCallFailure) in
            throw PathCallFailure(operation: "opendir", path: path, code: EACCES)
        }
        let prefix = Array("s.json.pending-".utf8)

        #expect(throws: SyncStateError.io(operation: "opendir", path: "/state", code: EACCES)) {
            try PendingBatchFile.newest(in: folder, prefix: prefix, above: 0, listing: denied)
        }
        #expect(throws: SyncStateError.io(operation: "opendir", path: "/state", code: EACCES)) {
            try PendingBatchFile.newestFile(in: folder, prefix: prefix, listing: denied)
        }
    }

    @Test func aPendingBatchFileNameCarriesItsSequenceAndOlderBodyNamesCarryNone() throws {
        let id = SyncFixtures.batchID
        let name = PendingBatchFile.name(prefix: "s.json.pending-", sequence: 0x2a, batchID: id)
        #expect(name == "s.json.pending-000000000000002a-\(id.uuidString).multipart")
        let prefix = Array("s.json.pending-".utf8)
        #expect(PendingBatchFile.sequence(inName: Array(name.utf8), prefix: prefix) == 42)
        for other in [
            "s.json.pending-\(id.uuidString).multipart",
            "other.json.pending-000000000000002a-\(id.uuidString).multipart",
            ".s.json.pending-000000000000002a-\(id.uuidString).multipart.tmp-x",
            "s.json.pending-000000000000002A-\(id.uuidString).multipart",
            "s.json.pending-000000000000002a-not-a-uuid-0000000000000000000000000.multipart",
        ] {
            #expect(PendingBatchFile.sequence(inName: Array(other.utf8), prefix: prefix) == nil, "\(other)")
        }
    }
}

/// A transport that accepts every batch and writes nothing: the run's only `fsync`s are the engine's.
final class AcceptingTransport: UploadTransport {
    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        Promise(
            value: UploadReceipt(
                batchID: request.batchID, disposition: .stored, bytesSent: request.contentLength, location: nil))
    }
}

/// Forwards to another transport, first copying every pending batch file in `folder` (name and bytes).
final class CopyingTransport: UploadTransport {
    let inner: any UploadTransport
    let folder: URL
    private let seen = LockedState<[String: Data]>([:])

    init(inner: any UploadTransport, folder: URL) {
        self.inner = inner
        self.folder = folder
    }

    var copies: [String: Data] { seen.withLock { $0 } }

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where name.hasPrefix("sync-state.json.pending-") {
            let data = try? Data(contentsOf: folder.appendingPathComponent(name))
            seen.withLock { $0[name] = data }
        }
        return inner.upload(request)
    }
}
