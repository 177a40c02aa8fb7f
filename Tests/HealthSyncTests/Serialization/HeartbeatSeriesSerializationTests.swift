import FlowKit
import Foundation
import HealthFlow
import HealthSync
import ReceiverSupport
import Testing

/// A heartbeat series travels in a sync batch as its sample with its beat count and its beats, and the receiver's
/// schema check accepts what the engine sends.
@Suite struct HeartbeatSeriesSerializationTests {
    typealias F = SyncFixtures

    static func series(uuid: UUID = F.uuid(40), source: HealthSource = F.watch) throws -> HealthSample {
        .heartbeatSeries(
            try HealthHeartbeatSeries(
                start: F.nine, end: F.nine.addingTimeInterval(64), count: 64, source: source,
                metadata: ["HKAlgorithmVersion": "2"], uuid: uuid))
    }

    @Test func aHeartbeatSeriesIsWrittenWithItsCountInTheDocumentedFieldOrder() throws {
        let data = try F.encode([(.heartbeatSeries, [try Self.series()], [])])
        let root = try F.json(data)
        let section = try #require((root["sections"] as? [[String: Any]])?.first)
        #expect(section["type"] as? String == "heartbeatSeries")
        let object = try #require((section["samples"] as? [[String: Any]])?.first)
        #expect(object["kind"] as? String == "heartbeatSeries")
        #expect(object["count"] as? Int == 64)
        #expect(object["end"] as? String == "2026-11-20T09:01:04+00:00")
        #expect(
            Array(object.keys).sorted()
                == ["count", "end", "heartbeats", "kind", "metadata", "source", "start", "type", "uuid"])
        #expect(object["heartbeats"] is NSNull, "written without its beats")
        let text = String(decoding: data, as: UTF8.self)
        var position = text.startIndex
        for key in [
            "\"uuid\"", "\"type\":\"heartbeatSeries\"", "\"kind\":\"heartbeatSeries\"", "\"start\"", "\"end\"",
            "\"source\"", "\"count\":64", "\"heartbeats\"", "\"metadata\"",
        ] {
            let found = try #require(text.range(of: key, range: position..<text.endIndex), "\(key)")
            position = found.upperBound
        }
    }

    @Test func theReceiverAcceptsTheHeartbeatSeriesTheEngineSends() async throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let store = InMemoryHealthStore(configuration: SyncEngineBench.app, policy: .grantAll)
        try await store.requestAuthorization(toShare: [.heartbeatSeries], read: [.heartbeatSeries])
        let series = try [
            Self.series(uuid: F.uuid(41), source: SyncEngineBench.source),
            Self.series(uuid: F.uuid(42), source: SyncEngineBench.source),
        ]
        try await store.save(series)
        let beats = (0..<64).map {
            HealthHeartbeat(timeSinceSeriesStart: 0.5 + Double($0) * 0.95, precededByGap: $0 == 9)
        }
        let recorded = try HealthHeartbeatSeries(
            start: F.nine, end: F.nine.addingTimeInterval(64), count: 64, source: SyncEngineBench.source,
            uuid: F.uuid(43))
        try store.ingest([try HeartbeatSeriesRecording(series: recorded, heartbeats: beats)])
        try await withTestReceiver { receiver in
            let engine = try SyncEngine(
                store: store, types: [.heartbeatSeries],
                anchorStore: AnchorStore(fileURL: folder.url.appendingPathComponent("state.json")),
                transport: HTTPTransport(url: receiver.uploadURL), deviceID: "device-1", batchSize: 10,
                tempFolder: folder.url.appendingPathComponent("tmp"), inMemoryLimit: 0, now: { F.nine })
            let report = try await engine.sync()
            #expect(report.samples == ["heartbeatSeries": 3])
            let stats = try await receiver.stats()
            #expect(stats.rejected == 0, "\(receiver.log)")
            #expect(Set(try await receiver.sampleCounts().keys) == Set(series.map(\.uuid) + [recorded.uuid]))
        }
    }

    @Test func theEngineSendsEachHeartbeatSeriesWithItsBeatsAsTwoColumns() async throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let store = InMemoryHealthStore(configuration: SyncEngineBench.app, policy: .grantAll)
        try await store.requestAuthorization(toShare: [], read: [.heartbeatSeries])
        let beats = (0..<40).map { HealthHeartbeat(timeSinceSeriesStart: Double($0) * 0.8125, precededByGap: $0 == 7) }
        let series = try HealthHeartbeatSeries(
            start: F.nine, end: F.nine.addingTimeInterval(40), count: beats.count, source: F.watch, uuid: F.uuid(44))
        try store.ingest([try HeartbeatSeriesRecording(series: series, heartbeats: beats)])
        let outbox = try OutboxTransport(directory: folder.url.appendingPathComponent("outbox"))
        let engine = try SyncEngine(
            store: store, types: [.heartbeatSeries],
            anchorStore: AnchorStore(fileURL: folder.url.appendingPathComponent("state.json")), transport: outbox,
            deviceID: "device-1", tempFolder: folder.url.appendingPathComponent("tmp"), now: { F.nine })
        let report = try await engine.sync()
        let id = try #require(report.batchIDs.first)
        let body = try Data(contentsOf: outbox.directory.appendingPathComponent(id.uuidString + ".multipart"))
        struct Batch: Decodable {
            struct Section: Decodable { let samples: [Sample] }
            struct Sample: Decodable { let heartbeats: Columns }
            struct Columns: Decodable {
                let timeSinceSeriesStart: [Double]
                let precededByGap: [Bool]
            }
            let sections: [Section]
        }
        let decoded = try JSONDecoder().decode(Batch.self, from: try SyncEngineDecodedBatch(multipart: body).jsonData)
        let columns = try #require(decoded.sections.first?.samples.first?.heartbeats)
        #expect(columns.timeSinceSeriesStart == beats.map(\.timeSinceSeriesStart))
        #expect(columns.precededByGap == beats.map(\.precededByGap))
    }
}
