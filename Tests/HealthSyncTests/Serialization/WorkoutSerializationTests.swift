import FlowKit
import Foundation
import HealthFlow
import HealthSync
import ReceiverSupport
import Testing

/// A workout travels in a sync batch with every field: the JSON reads back into the same workout, and the
/// receiver's schema check accepts what the engine sends.
@Suite struct WorkoutSerializationTests {
    typealias F = SyncFixtures

    static func workout(uuid: UUID = F.uuid(20)) throws -> HealthSample {
        let end = F.nine.addingTimeInterval(1800)
        let perMinute = HealthUnit.count().unitDivided(by: .minute())
        let heartRate = HealthWorkout.Statistics(
            type: .heartRate, start: F.nine, end: end, average: HealthQuantity(unit: perMinute, doubleValue: 151),
            minimum: HealthQuantity(unit: perMinute, doubleValue: 98),
            maximum: HealthQuantity(unit: perMinute, doubleValue: 176))
        let pause = HealthWorkout.Event(
            type: .pause, start: F.nine.addingTimeInterval(600), end: F.nine.addingTimeInterval(660),
            metadata: ["note": "shoelace"])
        let activity = HealthWorkout.Activity(
            activityType: .running, start: F.nine, end: end, events: [pause], statistics: [heartRate],
            metadata: ["leg": .number(1)], uuid: F.uuid(21))
        return .workout(
            try HealthWorkout(
                activityType: .running, start: F.nine, end: end, duration: 1740,
                totalEnergyBurned: HealthQuantity(unit: .kilocalorie(), doubleValue: 310.5),
                totalDistance: HealthQuantity(unit: .meterUnit(with: .kilo), doubleValue: 5.25), events: [pause],
                activities: [activity],
                statistics: [
                    heartRate,
                    HealthWorkout.Statistics(
                        type: .activeEnergyBurned, start: F.nine, end: end,
                        sum: HealthQuantity(unit: .kilocalorie(), doubleValue: 310.5)),
                ],
                source: F.watch, metadata: ["HKIndoorWorkout": .number(0)], uuid: uuid))
    }

    // MARK: - Reading the JSON back (what a receiver in Swift would do)

    static func date(_ value: Any?) throws -> Date {
        let text = try #require(value as? String)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return try #require(formatter.date(from: text))
    }

    static func uuid(_ value: Any?) throws -> UUID {
        let text = try #require(value as? String)
        return try #require(UUID(uuidString: text))
    }

    static func type(_ value: Any?) throws -> HealthObjectType {
        let identifier = try #require(value as? String)
        return try #require(HealthObjectType(identifier: identifier))
    }

    static func quantity(_ value: Any?) throws -> HealthQuantity? {
        guard let object = value as? [String: Any] else { return nil }
        let number = try #require(object["value"] as? Double)
        return HealthQuantity(unit: try HealthUnit(from: try #require(object["unit"] as? String)), doubleValue: number)
    }

    static func metadata(_ value: Any?) throws -> [MetadataKey: MetadataValue] {
        var metadata: [MetadataKey: MetadataValue] = [:]
        for (key, entry) in try #require(value as? [String: [String: Any]]) {
            if let string = entry["string"] as? String { metadata[MetadataKey(rawValue: key)] = .string(string) }
            if let number = entry["number"] as? Double { metadata[MetadataKey(rawValue: key)] = .number(number) }
        }
        return metadata
    }

    static func events(_ value: Any?) throws -> [HealthWorkout.Event] {
        try #require(value as? [[String: Any]]).map { event in
            let name = try #require(event["type"] as? String)
            let type = try #require(HealthWorkout.Event.EventType.allCases.first { "\($0)" == name })
            return HealthWorkout.Event(
                type: type, start: try date(event["start"]), end: try date(event["end"]),
                metadata: try metadata(event["metadata"]))
        }
    }

    static func statistics(_ value: Any?) throws -> [HealthWorkout.Statistics] {
        try #require(value as? [[String: Any]]).map { entry in
            HealthWorkout.Statistics(
                type: try type(entry["type"]),
                start: try date(entry["start"]), end: try date(entry["end"]), sum: try quantity(entry["sum"]),
                average: try quantity(entry["average"]), minimum: try quantity(entry["minimum"]),
                maximum: try quantity(entry["maximum"]))
        }
    }

    static func workout(from object: [String: Any]) throws -> HealthWorkout {
        let source = try #require(object["source"] as? [String: String])
        let activities = try #require(object["activities"] as? [[String: Any]]).map { activity in
            HealthWorkout.Activity(
                activityType: HealthWorkout.ActivityType(name: try #require(activity["activityType"] as? String)),
                start: try date(activity["start"]), end: try date(activity["end"]),
                events: try events(activity["events"]), statistics: try statistics(activity["statistics"]),
                metadata: try metadata(activity["metadata"]),
                uuid: try uuid(activity["uuid"]))
        }
        return try HealthWorkout(
            activityType: HealthWorkout.ActivityType(name: try #require(object["activityType"] as? String)),
            start: try date(object["start"]), end: try date(object["end"]),
            duration: try #require(object["duration"] as? Double),
            totalEnergyBurned: try quantity(object["totalEnergyBurned"]),
            totalDistance: try quantity(object["totalDistance"]),
            totalSwimmingStrokeCount: try quantity(object["totalSwimmingStrokeCount"]),
            totalFlightsClimbed: try quantity(object["totalFlightsClimbed"]), events: try events(object["events"]),
            activities: activities, statistics: try statistics(object["statistics"]),
            source: HealthSource(
                bundleIdentifier: try #require(source["bundleIdentifier"]), name: try #require(source["name"])),
            metadata: try metadata(object["metadata"]),
            uuid: try uuid(object["uuid"]))
    }

    // MARK: - Tests

    @Test func aWorkoutsJSONReadsBackIntoTheSameWorkout() throws {
        let sample = try Self.workout()
        let root = try F.json(try F.encode([(.workout, [sample], [])]))
        let section = try #require((root["sections"] as? [[String: Any]])?.first)
        #expect(section["type"] as? String == "workout")
        let object = try #require((section["samples"] as? [[String: Any]])?.first)
        #expect(object["kind"] as? String == "workout")
        #expect(object["totalSwimmingStrokeCount"] is NSNull)
        #expect(
            Array(object.keys).sorted()
                == [
                    "activities", "activityType", "duration", "end", "events", "kind", "metadata", "routes", "source",
                    "start", "statistics", "totalDistance", "totalEnergyBurned", "totalFlightsClimbed",
                    "totalSwimmingStrokeCount", "type", "uuid",
                ])
        #expect(HealthSample.workout(try Self.workout(from: object)) == sample)
    }

    @Test func aWorkoutIsWrittenInTheDocumentedFieldOrder() throws {
        let data = try F.encode([(.workout, [try Self.workout()], [])])
        let text = String(decoding: data, as: UTF8.self)
        let order = [
            "\"uuid\"", "\"type\":\"workout\"", "\"kind\":\"workout\"", "\"start\"", "\"end\"", "\"source\"",
            "\"activityType\"", "\"duration\"", "\"totalEnergyBurned\"", "\"totalDistance\"",
            "\"totalSwimmingStrokeCount\"", "\"totalFlightsClimbed\"", "\"events\"", "\"activities\"",
            "\"statistics\"", "\"routes\"", "\"metadata\"",
        ]
        var position = text.startIndex
        for key in order {
            let found = try #require(text.range(of: key, range: position..<text.endIndex), "\(key)")
            position = found.upperBound
        }
    }

    @Test func theReceiverAcceptsTheWorkoutsTheEngineSends() async throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let store = InMemoryHealthStore(configuration: SyncEngineBench.app, policy: .grantAll)
        try await store.requestAuthorization(toShare: [.workout], read: [.workout])
        let runs = try [Self.workout(uuid: F.uuid(30)), Self.workout(uuid: F.uuid(31))].map { sample in
            guard case .workout(let workout) = sample else { throw CancellationError() }
            return HealthSample.workout(
                try HealthWorkout(
                    activityType: workout.activityType, start: workout.startDate, end: workout.endDate,
                    duration: workout.duration, totalEnergyBurned: workout.totalEnergyBurned,
                    totalDistance: workout.totalDistance, events: workout.events, activities: workout.activities,
                    statistics: workout.statistics, source: SyncEngineBench.source, metadata: workout.metadata,
                    uuid: workout.uuid))
        }
        try await store.save(runs)
        try await withTestReceiver { receiver in
            let engine = try SyncEngine(
                store: store, types: [.workout],
                anchorStore: AnchorStore(
                    fileURL: folder.url.appendingPathComponent("state.json")),
                transport: HTTPTransport(url: receiver.uploadURL), deviceID: "device-1", batchSize: 10,
                tempFolder: folder.url.appendingPathComponent("tmp"), inMemoryLimit: 0, now: { F.nine })
            let report = try await engine.sync()
            #expect(report.samples == ["workout": 2])
            let stats = try await receiver.stats()
            #expect(stats.rejected == 0, "\(receiver.log)")
            #expect(Set(try await receiver.sampleCounts().keys) == Set(runs.map(\.uuid)))
        }
    }
}
