import Foundation
import HealthFlow
import HealthSync
import Testing

/// Fixed samples and helpers for the sync tests: every date, UUID and value is a constant.
enum SyncFixtures {
    static let watch = HealthSource(bundleIdentifier: "com.example.watch", name: "Watch")
    /// 2026-11-20T09:00:00Z.
    static let nine = Date(timeIntervalSince1970: 1_795_165_200)
    static let batchID = UUID(uuidString: "6F1E3C1A-8B0D-4C55-9D5B-2C1F0E7A9B10")!

    static func uuid(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", n))!
    }

    static var header: SyncBatchHeader {
        SyncBatchHeader(batchID: batchID, deviceID: "device-1", createdAt: nine.addingTimeInterval(3600))
    }

    static func heartRate(
        _ bpm: Double, at date: Date = nine, uuid: UUID = uuid(1), source: HealthSource = watch,
        metadata: [MetadataKey: MetadataValue] = [:]
    ) throws -> HealthSample {
        .quantity(
            try HealthQuantitySample(
                type: .heartRate, quantity: HealthQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: bpm),
                date: date, source: source, metadata: metadata, uuid: uuid))
    }

    /// Writes a whole batch into memory, one section per element.
    static func encode(
        _ sections: [(HealthObjectType, [HealthSample], [HealthDeletedObject])], header: SyncBatchHeader = header,
        chunkSize: Int = 64
    ) throws -> Data {
        var data = Data()
        var writer = SyncBatchWriter(header: header, chunkSize: chunkSize) { data.append(contentsOf: $0) }
        for (type, samples, deleted) in sections {
            try writer.beginSection(type)
            for sample in samples { try writer.writeSample(sample) }
            for object in deleted { try writer.writeDeleted(object) }
        }
        let length = try writer.finish()
        precondition(length == Int64(data.count))
        return data
    }

    static func json(_ data: Data) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// A fresh private folder under the system temp directory, removed by `remove()`.
struct SyncTempFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("healthsync-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    func permissions(of file: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
