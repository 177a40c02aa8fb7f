import FlowKit
import Foundation
import Testing

@testable import HealthFlow

/// The heartbeat series sample (`HKHeartbeatSeriesSample`), its beats' rules, its type and its query; the store
/// mechanics it shares with ECG voltages and workout routes are `SampleSeriesStoreTests`'.
struct HeartbeatSeriesTests {
    static func series(count: Int = 3, source: HealthSource = Fixture.watch) throws -> HealthHeartbeatSeries {
        try HealthHeartbeatSeries(
            start: Fixture.noon, end: Fixture.noon.addingTimeInterval(60), count: count, source: source)
    }

    static let beats = [
        HealthHeartbeat(timeSinceSeriesStart: 0), HealthHeartbeat(timeSinceSeriesStart: 0.93),
        HealthHeartbeat(timeSinceSeriesStart: 2.5, precededByGap: true),
    ]

    @Test func theTypeIsASharableAndReadableSampleTypeOfItsOwnKind() throws {
        let type = HealthObjectType.heartbeatSeries
        #expect(type.kind == .heartbeatSeries)
        #expect(type.isSampleType)
        #expect(type.isShareable)
        #expect(HealthObjectType(identifier: "HKDataTypeIdentifierHeartbeatSeries") == type)
        #expect(HealthObjectType.allTypes.contains(type))
        #expect(try Self.series().type == type)
    }

    @Test func beatsMustNumberTheCountWithFiniteAscendingTimesFromZero() throws {
        let series = try Self.series()
        _ = try HeartbeatSeriesRecording(series: series, heartbeats: Self.beats)
        #expect(throws: ValidationError.heartbeatCountMismatch(expected: 3, actual: 2)) {
            try HeartbeatSeriesRecording(series: series, heartbeats: Array(Self.beats.prefix(2)))
        }
        let cases: [(times: [Double], index: Int)] = [
            ([-0.5, 1, 2], 0), ([0, 1, 1], 2), ([0, 2, 1], 2), ([0, .nan, 2], 1), ([0, 1, .infinity], 2),
        ]
        for (times, index) in cases {
            let error = #expect(throws: ValidationError.self) {
                try series.validateHeartbeats(times.map { HealthHeartbeat(timeSinceSeriesStart: $0) })
            }
            guard case .heartbeatTimeOutOfOrder(let found, _)? = error else {
                Issue.record("\(times): \(String(describing: error))")
                continue
            }
            #expect(found == index, "\(times)")
        }
        #expect(throws: ValidationError.negativeValue(.heartbeatSeries, field: "count", value: -1)) {
            try Self.series(count: -1)
        }
    }

    @Test func aSeriesRoundTripsThroughJSONWithItsCount() throws {
        let sample = HealthSample.heartbeatSeries(try Self.series())
        let data = try JSONEncoder().encode(sample)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        #expect(object["heartbeatSeries"]?["count"] as? Int == 3)
        #expect(object["heartbeatSeries"]?["type"] as? String == "heartbeatSeries")
        #expect(try JSONDecoder().decode(HealthSample.self, from: data) == sample)
    }

    @Test func theDurableRecordsOfHeartbeatsHaveKindsOfTheirOwn() throws {
        #expect(SeriesKind.heartbeats.journalRecord.rawValue == 8)
        #expect(SeriesKind.heartbeats.snapshotRecord.rawValue == 23)
        #expect(SeriesKind.heartbeats.additionRecord == nil)
        let sample = HealthSample.heartbeatSeries(try Self.series())
        var writer = BinaryWriter()
        SampleCodec.encode(sample, into: &writer)
        #expect(writer.bytes.first == 6)
        var reader = BinaryReader(writer.bytes, range: 0..<writer.bytes.count)
        var decoder = SampleDecoder()
        #expect(try decoder.sample(from: &reader) == sample)
    }

    @Test func theQueryDeliversEachBeatThenDone() throws {
        let store = StoreFixture.store(executor: .immediate)
        store.requestAuthorization(toShare: [], read: [.heartbeatSeries]) { _, _ in }
        let series = try Self.series()
        try store.ingest([try HeartbeatSeriesRecording(series: series, heartbeats: Self.beats)])
        let delivered = LockedState<[String]>([])
        store.execute(
            HealthHeartbeatSeriesQuery(heartbeatSeries: series) { _, result in
                let entry =
                    switch result {
                    case .heartbeat(let beat): "\(beat.timeSinceSeriesStart)\(beat.precededByGap ? " gap" : "")"
                    case .done: "done"
                    case .error(let error): "error \(error)"
                    }
                delivered.withLock { $0.append(entry) }
            })
        #expect(delivered.withLock { $0 } == ["0.0", "0.93", "2.5 gap", "done"])

        let unknown = try Self.series()
        let none = LockedState<[String]>([])
        let query = HealthHeartbeatSeriesQuery(heartbeatSeries: unknown) { _, result in
            let entry = if case .done = result { "done" } else { "other" }
            none.withLock { $0.append(entry) }
        }
        store.execute(query)
        store.execute(query)
        #expect(none.withLock { $0 } == ["done", "other"], "a second run of one query object is an error")
    }
}
