import Foundation
import HealthFlow
import HealthSync
import Testing

/// The pending body carries a CRC-32 (zlib) in the state; a body damaged at rest is reported, never re-sent, and
/// state files written before the checksum existed still load and re-send.
@Suite struct PendingBatchIntegrityTests {
    /// A bench whose first upload was rejected: the batch is pending, its body on disk.
    static func crashedBench() async throws -> (SyncEngineBench, PendingBatch, URL, Data) {
        let bench = try await SyncEngineBench.make()
        try bench.store.ingest(try SyncEngineBench.heartRates(5))
        let rejecting = SyncEngineRejectingTransport()
        await #expect(throws: SyncEngineRejectingTransport.Rejected.self) {
            try await bench.engine(transport: rejecting).sync()
        }
        let pending = try #require(try bench.anchors.load().pending)
        let url = bench.folder.url.appendingPathComponent(pending.bodyFileName)
        return (bench, pending, url, try Data(contentsOf: url))
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
        let (bench, pending, _, body) = try await Self.crashedBench()
        defer { bench.remove() }
        #expect(pending.bodyCRC32 == Self.crc32(body))
        #expect(Self.crc32(Data("123456789".utf8)) == 0xCBF4_3926)
        let json = try String(contentsOf: bench.stateURL, encoding: .utf8)
        #expect(json.contains(#""bodyCRC32":\#(Self.crc32(body))"#))
    }

    @Test func aBodyOfTheRightLengthWithOneByteChangedIsReportedCorruptAndNotSent() async throws {
        let (bench, pending, url, body) = try await Self.crashedBench()
        defer { bench.remove() }
        var damaged = body
        damaged[damaged.count / 2] ^= 0x01
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

        try body.write(to: url)
        let report = try await bench.engine().sync()
        #expect(report.batchIDs == [pending.batchID])
    }

    @Test func aStateFileWithoutAChecksumStillLoadsAndItsBatchIsResent() async throws {
        let (bench, pending, url, body) = try await Self.crashedBench()
        defer { bench.remove() }
        // Rewrite the state as the previous version wrote it: the same record, no `bodyCRC32` key.
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: bench.stateURL)) as? [String: Any])
        var record = try #require(object["pending"] as? [String: Any])
        #expect(record.removeValue(forKey: "bodyCRC32") != nil)
        object["pending"] = record
        try JSONSerialization.data(withJSONObject: object).write(to: bench.stateURL)

        let loaded = try bench.anchors.load()
        #expect(loaded.pending?.bodyCRC32 == nil)
        #expect(loaded.pending?.batchID == pending.batchID)
        #expect(loaded.pending?.bodyLength == Int64(body.count))

        let report = try await bench.engine().sync()
        #expect(report.batchIDs == [pending.batchID])
        #expect(report.samples == ["heartRate": 5])
        #expect(try bench.outbox.storedBatchIDs() == [pending.batchID])
        #expect(try bench.anchors.load().pending == nil)
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
