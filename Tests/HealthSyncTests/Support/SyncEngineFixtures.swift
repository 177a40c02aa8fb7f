import FlowKit
import Foundation
import HealthFlow
import HealthSync
import Testing

/// A sync-engine test bench: a store the app may read and write, an outbox, a state file and a private temp
/// folder, all under one temp folder removed by `remove()`.
struct SyncEngineBench {
    static let app = HealthAppConfiguration(
        bundleIdentifier: "com.example.sync-tests", name: "Sync Tests",
        healthShareUsageDescription: "Reads your data to sync it.",
        healthUpdateUsageDescription: "Saves what you log.")
    static let source = HealthSource(bundleIdentifier: app.bundleIdentifier, name: app.name)
    static let types: [HealthObjectType] = [.heartRate, .stepCount]

    let folder: SyncTempFolder
    let store: InMemoryHealthStore
    let outbox: OutboxTransport
    var stateURL: URL { folder.url.appendingPathComponent("sync-state.json") }
    var tempURL: URL { folder.url.appendingPathComponent("sync-tmp") }
    var anchors: AnchorStore { AnchorStore(fileURL: stateURL) }

    static func make() async throws -> SyncEngineBench {
        let folder = try SyncTempFolder()
        let store = InMemoryHealthStore(configuration: app, policy: .grantAll)
        try await store.requestAuthorization(toShare: Set(types), read: Set(types))
        let outbox = try OutboxTransport(directory: folder.url.appendingPathComponent("outbox"))
        return SyncEngineBench(folder: folder, store: store, outbox: outbox)
    }

    func engine(
        transport: (any UploadTransport)? = nil, batchSize: Int = 1_000, inMemoryLimit: Int = 0
    ) throws -> SyncEngine {
        try SyncEngine(
            store: store, types: Self.types, anchorStore: anchors, transport: transport ?? outbox,
            deviceID: "device-1", batchSize: batchSize, tempFolder: tempURL, inMemoryLimit: inMemoryLimit,
            now: { SyncFixtures.nine })
    }

    /// `count` heart-rate samples from the app, UUIDs `SyncFixtures.uuid(first…)`, one minute apart.
    static func heartRates(_ count: Int, first: Int = 1) throws -> [HealthSample] {
        try (0..<count).map { index in
            try SyncFixtures.heartRate(
                60 + Double(index % 40), at: SyncFixtures.nine.addingTimeInterval(Double(index) * 60),
                uuid: SyncFixtures.uuid(first + index), source: source)
        }
    }

    /// `count` step-count samples from the app, UUIDs `SyncFixtures.uuid(first…)`.
    static func steps(_ count: Int, first: Int) throws -> [HealthSample] {
        try (0..<count).map { index in
            let start = SyncFixtures.nine.addingTimeInterval(Double(index) * 3600)
            return .quantity(
                try HealthQuantitySample(
                    type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: 100),
                    start: start, end: start.addingTimeInterval(600), source: source,
                    uuid: SyncFixtures.uuid(first + index)))
        }
    }

    /// The decoded batches in the outbox, by batch ID.
    func deliveredBatches() throws -> [UUID: SyncEngineDecodedBatch] {
        var batches: [UUID: SyncEngineDecodedBatch] = [:]
        for id in try outbox.storedBatchIDs() {
            batches[id] = try deliveredBatch(id)
        }
        return batches
    }

    /// One decoded batch from the outbox.
    func deliveredBatch(_ id: UUID) throws -> SyncEngineDecodedBatch {
        let url = outbox.directory.appendingPathComponent(id.uuidString + ".multipart")
        return try SyncEngineDecodedBatch(multipart: Data(contentsOf: url))
    }

    /// Every sample UUID and deleted UUID delivered, over all batches.
    func deliveredUUIDs() throws -> (samples: [UUID], deleted: [UUID]) {
        let batches = try deliveredBatches().values
        return (batches.flatMap(\.sampleUUIDs), batches.flatMap(\.deletedUUIDs))
    }

    func tempFiles() throws -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: tempURL.path)) ?? []
    }

    func remove() {
        folder.remove()
    }
}

/// A batch read back from a delivered multipart body: the part's headers, and the gunzipped JSON.
struct SyncEngineDecodedBatch {
    let partHeaders: String
    let json: [String: Any]
    /// The batch's JSON as sent, for a decoder that reads every number exactly (`JSONSerialization` on Linux does
    /// not).
    let jsonData: Data

    init(multipart body: Data) throws {
        let bytes = [UInt8](body)
        let firstLineEnd = try #require(Self.find([13, 10], in: bytes, from: 0))
        let boundary = Array(bytes[2..<firstLineEnd])
        let headersEnd = try #require(Self.find([13, 10, 13, 10], in: bytes, from: firstLineEnd))
        let closing = [13, 10, 45, 45] + boundary + [45, 45, 13, 10]
        let contentEnd = try #require(Self.find(closing, in: bytes, from: headersEnd + 4))
        #expect(contentEnd + closing.count == bytes.count)
        partHeaders = String(decoding: bytes[(firstLineEnd + 2)..<headersEnd], as: UTF8.self)
        let gzip = Data(bytes[(headersEnd + 4)..<contentEnd])
        jsonData = try GzipMultipartZlib.gunzip(gzip)
        json = try SyncFixtures.json(jsonData)
    }

    var batchID: String? { json["batchID"] as? String }
    var sections: [[String: Any]] { json["sections"] as? [[String: Any]] ?? [] }
    var sampleUUIDs: [UUID] {
        sections.flatMap {
            ($0["samples"] as? [[String: Any]] ?? []).compactMap { ($0["uuid"] as? String).flatMap(UUID.init) }
        }
    }
    var deletedUUIDs: [UUID] {
        sections.flatMap {
            ($0["deleted"] as? [[String: Any]] ?? []).compactMap { ($0["uuid"] as? String).flatMap(UUID.init) }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], Array(haystack[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }
}

/// A transport that rejects every upload, recording each request's batch ID, body and what the temp folder held.
final class SyncEngineRejectingTransport: UploadTransport {
    struct Rejected: Error {}
    let tempFolder: URL?
    private let seen = LockedState<[(batchID: UUID, tempFiles: [String], body: Data?)]>([])

    init(tempFolder: URL? = nil) {
        self.tempFolder = tempFolder
    }

    var attempts: [(batchID: UUID, tempFiles: [String], body: Data?)] { seen.withLock { $0 } }

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        let files = tempFolder.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        let body = try? request.body.makeData()
        seen.withLock { $0.append((request.batchID, files, body)) }
        return Promise(error: Rejected())
    }
}

/// A transport whose receiver stores the batch but whose acknowledgement is lost: it forwards to another, then
/// rejects.
final class SyncEngineLostAckTransport: UploadTransport {
    struct LostAck: Error {}
    let inner: any UploadTransport

    init(inner: any UploadTransport) {
        self.inner = inner
    }

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        inner.upload(request).then { _ -> Promise<UploadReceipt> in Promise(error: LostAck()) }
    }
}

/// A transport that forwards to another, noting the temp files (and their permissions) present during each upload.
final class SyncEngineWatchingTransport: UploadTransport {
    let inner: any UploadTransport
    let tempFolder: URL
    private let seen = LockedState<[[String: Int]]>([])

    init(inner: any UploadTransport, tempFolder: URL) {
        self.inner = inner
        self.tempFolder = tempFolder
    }

    /// Per upload: temp file name → POSIX permissions.
    var observed: [[String: Int]] { seen.withLock { $0 } }

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        var files: [String: Int] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: tempFolder.path)) ?? [] {
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: tempFolder.appendingPathComponent(name).path)
            files[name] = (attributes?[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        seen.withLock { $0.append(files) }
        return inner.upload(request)
    }
}
