import FlowKit
import Foundation
import HealthFlow
import Testing

@testable import HealthSync

@Suite struct OutboxTransportTests {
    static func request(_ body: Data, id: UUID = SyncFixtures.batchID, ext: String = "json", length: Int64? = nil)
        -> UploadRequest
    {
        UploadRequest(
            batchID: id, contentType: "application/json", contentLength: length ?? Int64(body.count),
            fileExtension: ext, body: .stream { InputStream(data: body) })
    }

    @Test func writesTheBodyToBatchIDDotExtension() async throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let outbox = try OutboxTransport(directory: folder.url)
        let body = try SyncFixtures.encode([(.heartRate, [try SyncFixtures.heartRate(64)], [])])
        let receipt = try await outbox.upload(Self.request(body))
        let file = folder.url.appendingPathComponent(SyncFixtures.batchID.uuidString + ".json")
        #expect(
            receipt
                == UploadReceipt(
                    batchID: SyncFixtures.batchID, disposition: .stored, bytesSent: Int64(body.count),
                    location: file.path))
        #expect(try Data(contentsOf: file) == body)
        #expect(try folder.names() == [file.lastPathComponent])
        #expect(try outbox.storedBatchIDs() == [SyncFixtures.batchID])
    }

    /// A body staged in the outbox is written and `fsync`ed under a temp name and is no delivery: the outbox lists
    /// nothing, and a new outbox removes it as a leftover. Delivering it is a link and the folder's `fsync`; a second
    /// staged copy of the same batch is a duplicate, and its temp file is removed.
    @Test func aStagedBodyIsNoDeliveryUntilItIsLinkedIntoPlaceWithTheFoldersFsync() async throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let outbox = try OutboxTransport(directory: folder.url)
        let body = try SyncFixtures.encode([(.heartRate, [try SyncFixtures.heartRate(64)], [])])
        let request = Self.request(body)
        let fsyncs = LockedState<[String]>([])
        let staged = try AtomicFile.$fsyncObserver.withValue({ path in fsyncs.withLock { $0.append("\(path)") } }) {
            try outbox.stageBody(request)
        }
        #expect(fsyncs.withLock { $0 } == [staged.file.tempPath.description])
        #expect(try outbox.storedBatchIDs().isEmpty)
        #expect(try folder.names() == [staged.file.tempPath.lastComponent.description])
        #expect(
            try OutboxTransport(directory: folder.url).removedLeftovers == [
                staged.file.tempPath.lastComponent.description
            ])
        #expect(try folder.names().isEmpty)

        let again = try outbox.stageBody(request)
        fsyncs.withLock { $0.removeAll() }
        let receipt = try AtomicFile.$fsyncObserver.withValue({ path in fsyncs.withLock { $0.append("\(path)") } }) {
            try outbox.deliver(again, as: request, reporter: .unobserved())
        }
        #expect(fsyncs.withLock { $0 } == [outbox.directoryPath.description], "only the folder's")
        #expect(receipt.disposition == .stored && receipt.bytesSent == Int64(body.count))
        let file = folder.url.appendingPathComponent(SyncFixtures.batchID.uuidString + ".json")
        #expect(try Data(contentsOf: file) == body)
        #expect(try outbox.storedBatchIDs() == [SyncFixtures.batchID])

        let duplicate = try outbox.deliver(try outbox.stageBody(request), as: request, reporter: .unobserved())
        #expect(duplicate.disposition == .duplicate)
        #expect(try folder.names() == [file.lastPathComponent], "the duplicate's temp file is removed")
    }

    /// A body staged for another batch is removed, and the batch delivered from its own body.
    @Test func aBodyStagedForAnotherBatchIsRemovedAndTheRequestDeliveredFromItsOwnBody() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let outbox = try OutboxTransport(directory: folder.url)
        let body = try SyncFixtures.encode([(.heartRate, [try SyncFixtures.heartRate(64)], [])])
        let other = try outbox.stageBody(Self.request(Data("other".utf8), id: SyncFixtures.uuid(9)))
        let receipt = try outbox.deliver(other, as: Self.request(body), reporter: .unobserved())
        #expect(receipt.disposition == .stored)
        let file = folder.url.appendingPathComponent(SyncFixtures.batchID.uuidString + ".json")
        #expect(try Data(contentsOf: file) == body)
        #expect(try folder.names() == [file.lastPathComponent])
    }

    @Test func aNewOutboxRemovesOnlyItsOwnPartialDeliveriesAndReportsThem() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let partial = ".\(UUID().uuidString).json.gz.tmp-\(UUID().uuidString)"
        let foreign = [
            ".notes.tmp-1", "\(UUID().uuidString).json.tmp-\(UUID().uuidString)", ".\(UUID().uuidString).tmp-x",
        ]
        for name in [partial] + foreign {
            #expect(
                FileManager.default.createFile(
                    atPath: folder.url.appendingPathComponent(name).path, contents: Data([1])))
        }
        let outbox = try OutboxTransport(directory: folder.url)
        #expect(outbox.removedLeftovers == [partial])
        #expect(try folder.names().sorted() == foreign.sorted())
    }

    /// Names one byte away from a partial delivery's (IDs in lowercase or without hyphens, an extension a delivery
    /// refuses, something after the tag) are another program's: a new outbox keeps them, byte for byte.
    @Test func aNewOutboxKeepsFilesThatOnlyLookLikeItsPartialDeliveries() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let upper = UUID().uuidString
        let lower = upper.lowercased()
        let ours = [".\(upper).multipart.tmp-\(UUID().uuidString)", ".\(UUID().uuidString).json.gz.tmp-\(upper)"]
        let foreign = [
            ".\(lower).multipart.tmp-\(lower)", ".\(upper).multipart.tmp-\(lower)", ".\(lower).multipart.tmp-\(upper)",
            ".\(upper.prefix(35))a.multipart.tmp-\(upper)", ".\(upper).multipart.tmp-\(upper)~",
            ".\(upper).multipart.tmp-\(upper.replacingOccurrences(of: "-", with: ""))",
            ".\(upper)..hidden.tmp-\(upper)",
            ".\(upper)..tmp-\(upper)", ".\(upper).tmp-\(upper)", "\(upper).multipart.tmp-\(upper)",
            "..\(upper).multipart.tmp-\(upper)", ".\(upper).multipart.tmp_\(upper)",
        ]
        for name in ours + foreign {
            #expect(
                FileManager.default.createFile(
                    atPath: folder.url.appendingPathComponent(name).path, contents: Data(name.utf8)))
        }
        let outbox = try OutboxTransport(directory: folder.url)
        #expect(outbox.removedLeftovers == ours.sorted())
        #expect(try folder.names().sorted() == foreign.sorted())
        for name in foreign {
            #expect(try Data(contentsOf: folder.url.appendingPathComponent(name)) == Data(name.utf8), "\(name)")
        }
    }

    @Test func anOutboxThatCannotBeCreatedNamesTheRealErrno() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("a-file")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data()))
        let error = #expect(throws: UploadError.self) {
            try OutboxTransport(directory: file.appendingPathComponent("outbox"))
        }
        guard case .io("mkdir", _, let code)? = error else {
            Issue.record("expected a mkdir error, got \(String(describing: error))")
            return
        }
        #expect(code == 20)  // ENOTDIR
        #expect("\(error!)".contains("Not a directory (errno 20)"))
    }

    @Test func storesTheBodyWithMode0600() async throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let outbox = try OutboxTransport(directory: folder.url)
        let request = Self.request(Data("{}".utf8), ext: "json.gz")
        _ = try await outbox.upload(request)
        #expect(try folder.permissions(of: outbox.fileURL(for: request)) == 0o600)
    }

    @Test func countsARetriedBatchOnceAndReportsTheDuplicate() async throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let outbox = try OutboxTransport(directory: folder.url)
        let first = try await outbox.upload(Self.request(Data("first".utf8)))
        let retry = try await outbox.upload(Self.request(Data("retry".utf8)))
        #expect(first.disposition == .stored)
        #expect(retry.disposition == .duplicate)
        #expect(retry.bytesSent == 0)
        #expect(try Data(contentsOf: outbox.fileURL(for: Self.request(Data()))) == Data("first".utf8))
        #expect(try outbox.storedBatchIDs() == [SyncFixtures.batchID])
        #expect(try folder.names().count == 1)
    }

    @Test func concurrentUploadsOfOneBatchStoreItOnce() async throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let outbox = try OutboxTransport(directory: folder.url)
        let body = Data(repeating: 0x41, count: 200_000)
        let receipts = try await withThrowingTaskGroup(of: UploadReceipt.self) { group in
            for _ in 0..<8 { group.addTask { try await outbox.upload(Self.request(body)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(receipts.filter { $0.disposition == .stored }.count == 1)
        #expect(receipts.filter { $0.disposition == .duplicate }.count == 7)
        #expect(try folder.names() == [SyncFixtures.batchID.uuidString + ".json"])
        #expect(try Data(contentsOf: outbox.fileURL(for: Self.request(body))) == body)
    }

    @Test func rejectsABodyWhoseLengthDiffersAndLeavesNothing() async throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let outbox = try OutboxTransport(directory: folder.url)
        for announced in [Int64(4), 6] {
            await #expect(throws: UploadError.self) {
                try await outbox.upload(Self.request(Data("12345".utf8), length: announced))
            }
        }
        #expect(try folder.names().isEmpty)
    }

    @Test func rejectsAnExtensionThatWouldEscapeTheFolder() async throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let outbox = try OutboxTransport(directory: folder.url)
        for ext in ["", "../x", ".hidden"] {
            await #expect(throws: UploadError.invalidFileExtension(ext)) {
                try await outbox.upload(Self.request(Data("x".utf8), ext: ext))
            }
        }
    }

    @Test func readsAFileBodyAfreshForEveryAttempt() async throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let bodyURL = folder.url.appendingPathComponent("body.json")
        try Data("{\"a\":1}".utf8).write(to: bodyURL)
        let body = UploadBody.file(at: bodyURL)
        #expect(try body.makeData() == Data("{\"a\":1}".utf8))
        #expect(try body.makeData() == Data("{\"a\":1}".utf8))
        let outbox = try OutboxTransport(directory: folder.url.appendingPathComponent("outbox"))
        let request = UploadRequest(
            batchID: SyncFixtures.uuid(3), contentType: "application/json", contentLength: 7, body: body)
        #expect(try await outbox.upload(request).disposition == .stored)
        #expect(try Data(contentsOf: outbox.fileURL(for: request)) == Data("{\"a\":1}".utf8))
        #expect(request.idempotencyKey == SyncFixtures.uuid(3).uuidString)
    }
}
