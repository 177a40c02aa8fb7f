import Foundation
import HealthFlow
import HealthSync
import Testing

/// The pending body carries a CRC-32 (zlib) in its record; a body damaged at rest is reported, never re-sent, and
/// state files written by the version before (a state file recording a body file, with or without the checksum)
/// still load and re-send.
@Suite struct PendingBatchIntegrityTests {
    /// A bench whose first upload was rejected: the batch is pending; its file (body and record) and its body.
    static func crashedBench() async throws -> (SyncEngineBench, PendingBatch, URL, file: Data, body: Data) {
        let bench = try await SyncEngineBench.make()
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        let rejecting = SyncEngineRejectingTransport()
        await #expect(throws: SyncEngineRejectingTransport.Rejected.self) {
            try await bench.engine(transport: rejecting).sync()
        }
        let pending = try #require(try bench.anchors.load().pending)
        let url = bench.folder.url.appendingPathComponent(pending.bodyFileName)
        let file = try Data(contentsOf: url)
        return (bench, pending, url, file, file.prefix(Int(pending.bodyLength)))
    }

    /// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) bit by bit: an oracle independent of zlib.
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 0 ? 0 : 0xEDB8_8320) }
        }
        return ~crc
    }

    @Test func thePendingRecordHoldsTheCRC32OfTheBodyWritten() async throws {
        let (bench, pending, _, file, body) = try await Self.crashedBench()
        defer { bench.remove() }
        #expect(pending.bodyCRC32 == Self.crc32(body))
        #expect(Self.crc32(Data("123456789".utf8)) == 0xCBF4_3926)
        let record = String(decoding: file.dropFirst(body.count), as: UTF8.self)
        #expect(record.contains(#""bodyCRC32":\#(Self.crc32(body))"#))
    }

    @Test func aBodyOfTheRightLengthWithOneByteChangedIsReportedCorruptAndNotSent() async throws {
        let (bench, pending, url, file, body) = try await Self.crashedBench()
        defer { bench.remove() }
        var damaged = file
        damaged[body.count / 2] ^= 0x01
        try damaged.write(to: url)
        let before = try bench.anchors.load()

        await #expect {
            try await bench.engine().sync()
        } throws: { error in
            guard case .pendingBatchCorrupt(let path, let reason) = error as? SyncEngineError else { return false }
            return path == url.path && reason.contains("CRC-32")
        }
        #expect(try bench.outbox.storedBatchIDs().isEmpty, "the damaged body was not uploaded")
        #expect(try bench.anchors.load() == before, "the state is left for a person to look at")
        #expect(try Data(contentsOf: url) == damaged)

        try file.write(to: url)
        let report = try await bench.engine().sync()
        #expect(report.batchIDs == [pending.batchID])
    }

    /// The version before kept the body alone in `<state file>.pending-<ID>.multipart` and the record in the state
    /// file, at first without `bodyCRC32`: an upgrade in the middle of a pending batch keeps the batch.
    @Test(arguments: [true, false])
    func aStateFileOfTheVersionBeforeStillLoadsAndItsBatchIsResent(withChecksum: Bool) async throws {
        let (bench, pending, url, _, body) = try await Self.crashedBench()
        defer { bench.remove() }
        let legacyName = "sync-state.json.pending-\(pending.batchID.uuidString).multipart"
        let legacyURL = bench.folder.url.appendingPathComponent(legacyName)
        var state = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(try bench.anchors.load())) as? [String: Any])
        #expect(state["store"] != nil && state["sequence"] == nil)
        try body.write(to: legacyURL)
        try FileManager.default.removeItem(at: url)
        var record = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(pending)) as? [String: Any])
        record["bodyFileName"] = legacyName
        if !withChecksum { #expect(record.removeValue(forKey: "bodyCRC32") != nil) }
        state["pending"] = record
        try JSONSerialization.data(withJSONObject: state).write(to: bench.stateURL)

        let loaded = try bench.anchors.load()
        #expect(loaded.pending?.bodyCRC32 == (withChecksum ? pending.bodyCRC32 : nil))
        #expect(loaded.pending?.batchID == pending.batchID)
        #expect(loaded.pending?.bodyFileName == legacyName)
        #expect(loaded.pending?.bodyLength == Int64(body.count))

        let report = try await bench.engine().sync()
        #expect(report.batchIDs == [pending.batchID])
        #expect(report.samples == ["heartRate": 5])
        #expect(try bench.outbox.storedBatchIDs() == [pending.batchID])
        let delivered = bench.outbox.directory.appendingPathComponent(pending.batchID.uuidString + ".multipart")
        #expect(try Data(contentsOf: delivered) == body)
        #expect(try bench.anchors.load().pending == nil)
        #expect(try bench.anchors.load().anchors == pending.endAnchors)
        #expect(!FileManager.default.fileExists(atPath: legacyURL.path))
    }
}
