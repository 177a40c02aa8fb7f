import Foundation
import HealthFlow
import HealthSync
import RawPathSupport
import Testing

/// HealthSync's files at paths that are not UTF-8: the outbox, the sync state, the temp and pending bodies all
/// land in exactly the folders named — never in folders whose names have U+FFFD in place of the bytes.
@Suite struct NonUTF8PathTests {
    /// A fresh `/tmp` folder for one test, as its raw bytes, and the same as a path.
    private static func parent(_ label: String) throws -> ([UInt8], FileSystemPath) {
        let bytes = RawPaths.temporaryFolder(label)
        return (bytes, try FileSystemPath(bytes: bytes))
    }

    @Test func anOutboxInAFolderNamedWithByteFFDeliversThere() async throws {
        let (parent, root) = try Self.parent("outbox-ff")
        defer { try? root.removeTree() }
        let name = RawPaths.withFF("outbox-")
        let outbox = try OutboxTransport(directoryPath: try FileSystemPath(bytes: RawPaths.join(parent, name)))
        let body = Data("{\"a\":1}".utf8)
        let request = UploadRequest(
            batchID: SyncFixtures.batchID, contentType: "application/json", contentLength: Int64(body.count),
            fileExtension: "json", body: .data(body))

        let receipt = try await outbox.upload(request)
        #expect(receipt.disposition == .stored)
        #expect(RawPaths.names(in: parent) == [name])
        #expect(!RawPaths.holdsReplacement(parent))
        #expect(
            RawPaths.names(in: RawPaths.join(parent, name)) == [Array("\(SyncFixtures.batchID.uuidString).json".utf8)])
        #expect(try outbox.filePath(for: request).readContents() == Array(body))
        #expect(try outbox.storedBatchIDs() == [SyncFixtures.batchID])
        #expect(try await outbox.upload(request).disposition == .duplicate)
    }

    @Test func aFileBodyIsReadFromTheRawPath() throws {
        let (parent, root) = try Self.parent("body-ff")
        defer { try? root.removeTree() }
        let folder = RawPaths.join(parent, RawPaths.withBrokenSequence("bodies-", "-here"))
        #expect(RawPaths.makeFolder(folder))
        let file = try FileSystemPath(bytes: RawPaths.join(folder, Array("body.multipart".utf8)))
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try file.writeContents(bytes, mode: 0o600)

        let body = UploadBody.file(atPath: file)
        #expect(try body.makeData() == Data(bytes))
        var streamed: [UInt8] = []
        try body.forEachChunk(chunkSize: 4_096) { streamed += $0 }
        #expect(streamed == bytes)

        let missing = UploadBody.file(atPath: file.parent.appending("missing"))
        #expect(throws: UploadError.self) { try missing.forEachChunk { _ in } }
        let stream = try missing.makeInputStream()
        stream.open()
        #expect(stream.streamStatus == .error)
        #expect("\(stream.streamError.map { "\($0)" } ?? "")".contains("errno 2"))
    }

    @Test func anAnchorStoreKeepsItsFileInTheRawFolder() throws {
        let (parent, root) = try Self.parent("anchors-ff")
        defer { try? root.removeTree() }
        let name = RawPaths.withFF("state-")
        #expect(RawPaths.makeFolder(RawPaths.join(parent, name)))
        let anchors = AnchorStore(
            path: try FileSystemPath(bytes: RawPaths.join(parent, name)).appending("sync-state.json"))
        #expect(try anchors.load() == SyncState())
        var state = SyncState()
        state.pendingBatchID = SyncFixtures.batchID
        try anchors.save(state)

        #expect(RawPaths.names(in: RawPaths.join(parent, name)) == [Array("sync-state.json".utf8)])
        #expect(RawPaths.names(in: parent) == [name])
        #expect(!RawPaths.holdsReplacement(parent))
        #expect(try AnchorStore(path: anchors.path).load() == state)
    }

    /// A run whose upload fails leaves its pending body in the raw state folder; the next run re-sends it from
    /// there (checksum, then the file itself) into a raw outbox, and both folders are the ones named.
    @Test func aSyncEngineKeepsStateAndPendingBodiesInRawFolders() async throws {
        let (parent, root) = try Self.parent("engine-ff")
        defer { try? root.removeTree() }
        let stateName = RawPaths.withFF("state-")
        let outboxName = RawPaths.withBrokenSequence("outbox-", "-x")
        let state = try FileSystemPath(bytes: RawPaths.join(parent, stateName))
        let store = InMemoryHealthStore(configuration: SyncEngineBench.app, policy: .grantAll)
        try await store.requestAuthorization(toShare: [.heartRate], read: [.heartRate])
        let samples = try SyncEngineBench.heartRates(5)
        try await store.save(samples)
        func engine(_ transport: any UploadTransport) throws -> SyncEngine {
            try SyncEngine(
                store: store, types: [.heartRate], anchorStore: AnchorStore(path: state.appending("sync-state.json")),
                transport: transport, deviceID: "device-1", tempFolderPath: state.appending("sync-tmp"),
                inMemoryLimit: 0, now: { SyncFixtures.nine })
        }

        let rejecting = SyncEngineRejectingTransport()
        await #expect(throws: SyncEngineRejectingTransport.Rejected.self) { try await engine(rejecting).sync() }
        let pendingName = Array("sync-state.json.pending-".utf8)
        let stateFiles = RawPaths.names(in: state.bytes)
        #expect(stateFiles.contains { $0.starts(with: pendingName) })
        #expect(RawPaths.names(in: parent) == [stateName])
        #expect(rejecting.attempts.first?.body?.isEmpty == false, "the pending body was read back from its file")

        let outbox = try OutboxTransport(directoryPath: try FileSystemPath(bytes: RawPaths.join(parent, outboxName)))
        let report = try await engine(outbox).sync()
        #expect(report.batches == 1 && report.totalSamples == 5)
        #expect(Set(RawPaths.names(in: parent)) == [stateName, outboxName])
        #expect(!RawPaths.holdsReplacement(parent) && !RawPaths.holdsReplacement(state.bytes))
        #expect(!RawPaths.names(in: state.bytes).contains { $0.starts(with: pendingName) })
        #expect(RawPaths.names(in: state.appending("sync-tmp").bytes).isEmpty)
        let delivered = try outbox.storedBatchIDs()
        #expect(delivered.count == 1)
        let batch = try SyncEngineDecodedBatch(
            multipart: Data(try outbox.directoryPath.appending("\(delivered[0].uuidString).multipart").readContents()))
        #expect(Set(batch.sampleUUIDs) == Set(samples.map(\.uuid)))
        #expect(try await engine(outbox).sync().isEmpty)
    }
}
