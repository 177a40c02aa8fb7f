import FlowKit
import Foundation
import HealthFlow
import HealthSync
import ReceiverSupport
import Testing

/// An ECG's voltage measurements and a workout's routes travel with their samples: the writer puts them in the
/// sample's JSON as columns, the engine reads them from the store for each batch, and the receiver's schema
/// accepts what it sends.
@Suite struct SampleSeriesSerializationTests {
    typealias F = SyncFixtures

    static let types: [HealthObjectType] = [.electrocardiogram, .workout, .heartRate]

    /// An ECG of `count` measurements at 512 Hz starting `minutes` after nine, with values that differ.
    static func ecg(count: Int = 64, minutes: Double = 0, uuid: UUID) throws -> ElectrocardiogramRecording {
        let start = F.nine.addingTimeInterval(minutes * 60)
        let ecg = try HealthElectrocardiogram(
            start: start, end: start.addingTimeInterval(Double(count) / 512), classification: .sinusRhythm,
            symptomsStatus: .none, averageHeartRate: nil,
            samplingFrequency: HealthQuantity(unit: .hertz(), doubleValue: 512), numberOfVoltageMeasurements: count,
            source: SyncEngineBench.source, uuid: uuid)
        let measurements = (0..<count).map { index in
            ElectrocardiogramVoltageMeasurement(
                timeSinceSampleStart: Double(index) / 512, microvolts: sin(Double(index) / 9) * 800 + 0.125)
        }
        return try ElectrocardiogramRecording(electrocardiogram: ecg, voltageMeasurements: measurements)
    }

    /// A route of `count` locations a second apart from `start`; the first location's vertical accuracy unknown.
    static func route(count: Int, start: Date) throws -> HealthWorkoutRoute {
        try HealthWorkoutRoute(
            locations: (0..<count).map { index in
                let step = Double(index)
                return HealthWorkoutRoute.Location(
                    timestamp: start.addingTimeInterval(step), latitude: 52.5 + step * 1e-5,
                    longitude: 13.4 + step * 1e-5, altitude: 34 + step / 8, speed: 2.75, course: 45,
                    horizontalAccuracy: 4.5, verticalAccuracy: index == 0 ? -1 : 3)
            })
    }

    /// A half-hour run with two routes, `hours` after nine.
    static func run(hours: Double = 0, uuid: UUID) throws -> WorkoutRecording {
        let start = F.nine.addingTimeInterval(hours * 3600)
        let workout = try HealthWorkout(
            activityType: .running, start: start, end: start.addingTimeInterval(1800),
            source: SyncEngineBench.source, uuid: uuid)
        return WorkoutRecording(
            workout: workout,
            routes: [try route(count: 5, start: start), try route(count: 3, start: start.addingTimeInterval(900))])
    }

    /// A batch's samples with their series, decoded by `JSONDecoder` (which reads every number exactly).
    struct DecodedBatch: Decodable {
        struct Section: Decodable {
            let type: String
            let samples: [Sample]
        }
        struct Sample: Decodable {
            let uuid: UUID
            let voltageMeasurements: Voltages?
            let routes: [Route]?
        }
        struct Voltages: Decodable {
            let timeSinceSampleStart: [Double]
            let microvolts: [Double]
        }
        struct Route: Decodable {
            let locations: Locations
        }
        struct Locations: Decodable {
            let timestamp: [String]
            let latitude, longitude, altitude, speed, course, horizontalAccuracy, verticalAccuracy: [Double]
        }
        let sections: [Section]

        /// The samples of the section of `type`.
        func samples(_ type: String) -> [Sample] { sections.filter { $0.type == type }.flatMap(\.samples) }
    }

    static func measurements(_ voltages: DecodedBatch.Voltages?) throws -> [ElectrocardiogramVoltageMeasurement] {
        let voltages = try #require(voltages)
        try #require(voltages.timeSinceSampleStart.count == voltages.microvolts.count)
        return zip(voltages.timeSinceSampleStart, voltages.microvolts).map {
            ElectrocardiogramVoltageMeasurement(timeSinceSampleStart: $0, microvolts: $1)
        }
    }

    static func routes(_ routes: [DecodedBatch.Route]?) throws -> [HealthWorkoutRoute] {
        try #require(routes).map { route in
            let columns = route.locations
            let timestamps = try columns.timestamp.map { try WorkoutSerializationTests.date($0) }
            let numbers = [
                columns.latitude, columns.longitude, columns.altitude, columns.speed, columns.course,
                columns.horizontalAccuracy, columns.verticalAccuracy,
            ]
            try #require(numbers.allSatisfy { $0.count == timestamps.count })
            return try HealthWorkoutRoute(
                locations: timestamps.indices.map { index in
                    HealthWorkoutRoute.Location(
                        timestamp: timestamps[index], latitude: numbers[0][index], longitude: numbers[1][index],
                        altitude: numbers[2][index], speed: numbers[3][index], course: numbers[4][index],
                        horizontalAccuracy: numbers[5][index], verticalAccuracy: numbers[6][index])
                })
        }
    }

    /// The JSON of a one-sample batch.
    static func write(_ sample: HealthSample, series: SyncSampleSeries?) throws -> Data {
        var data = Data()
        var writer = SyncBatchWriter(header: F.header, chunkSize: 64) { data.append(contentsOf: $0) }
        try writer.beginSection(sample.type)
        try writer.writeSample(sample, series: series)
        try writer.finish()
        return data
    }

    static func decodedSample(_ data: Data, _ type: String) throws -> DecodedBatch.Sample {
        try #require(try JSONDecoder().decode(DecodedBatch.self, from: data).samples(type).first)
    }

    static func jsonSample(_ data: Data, _ type: String) throws -> [String: Any] {
        let sections = try #require(try F.json(data)["sections"] as? [[String: Any]])
        let section = try #require(sections.first { $0["type"] as? String == type })
        return try #require((section["samples"] as? [[String: Any]])?.first)
    }

    // MARK: - The writer

    @Test func anECGsVoltageMeasurementsTravelWithItAsTwoColumns() throws {
        let recording = try Self.ecg(count: 100, uuid: F.uuid(40))
        let data = try Self.write(
            .electrocardiogram(recording.electrocardiogram),
            series: .voltageMeasurements(recording.voltageMeasurements))
        let object = try Self.jsonSample(data, "electrocardiogram")
        let columns = try #require(object["voltageMeasurements"] as? [String: Any])
        #expect(Array(columns.keys).sorted() == ["microvolts", "timeSinceSampleStart"])
        let sample = try Self.decodedSample(data, "electrocardiogram")
        #expect(try Self.measurements(sample.voltageMeasurements) == recording.voltageMeasurements)
    }

    @Test func aWorkoutsRoutesTravelWithItAsColumnsOfLocations() throws {
        let recording = try Self.run(uuid: F.uuid(41))
        let data = try Self.write(.workout(recording.workout), series: .routes(recording.routes))
        #expect(try Self.routes(Self.decodedSample(data, "workout").routes) == recording.routes)
    }

    @Test func aSampleWrittenWithoutItsSeriesSaysSoWithNull() throws {
        let ecg = try Self.ecg(uuid: F.uuid(42)).electrocardiogram
        let ecgJSON = try Self.jsonSample(Self.write(.electrocardiogram(ecg), series: nil), "electrocardiogram")
        #expect(ecgJSON["voltageMeasurements"] is NSNull)
        let workout = try Self.run(uuid: F.uuid(43)).workout
        #expect(try Self.jsonSample(Self.write(.workout(workout), series: nil), "workout")["routes"] is NSNull)
    }

    @Test func aSeriesOfAnotherKindIsRefusedBeforeAnythingIsWritten() throws {
        let workout = HealthSample.workout(try Self.run(uuid: F.uuid(44)).workout)
        let ecg = HealthSample.electrocardiogram(try Self.ecg(uuid: F.uuid(45)).electrocardiogram)
        let cases: [(HealthSample, SyncSampleSeries)] = [
            (workout, .voltageMeasurements([])), (ecg, .routes([])), (try F.heartRate(60), .routes([])),
        ]
        for (sample, series) in cases {
            var data = Data()
            var writer = SyncBatchWriter(header: F.header, chunkSize: 64) { data.append(contentsOf: $0) }
            try writer.beginSection(sample.type)
            let before = writer.byteCount
            #expect(throws: SyncSerializationError.self) { try writer.writeSample(sample, series: series) }
            #expect(writer.byteCount == before)
        }
    }

    // MARK: - The engine

    /// A store holding three ECGs and two runs with their series, and one heart rate; the engine syncing them.
    struct Bench {
        let folder: SyncTempFolder
        let store: InMemoryHealthStore
        let outbox: OutboxTransport
        let ecgs: [ElectrocardiogramRecording]
        let runs: [WorkoutRecording]

        init(ecgs count: Int = 3) async throws {
            folder = try SyncTempFolder()
            store = InMemoryHealthStore(configuration: SyncEngineBench.app, policy: .grantAll)
            try await store.requestAuthorization(toShare: [.workout, .heartRate], read: Set(types))
            outbox = try OutboxTransport(directory: folder.url.appendingPathComponent("outbox"))
            ecgs = try (0..<count).map {
                try SampleSeriesSerializationTests.ecg(minutes: Double($0), uuid: F.uuid(100 + $0))
            }
            runs = try (0..<2).map { try SampleSeriesSerializationTests.run(hours: Double($0), uuid: F.uuid(200 + $0)) }
            try store.ingest(ecgs)
            try store.ingest(runs)
            try store.ingest([try F.heartRate(61, uuid: F.uuid(300), source: SyncEngineBench.source)])
        }

        func engine(transport: (any UploadTransport)? = nil, batchSize: Int = 100) throws -> SyncEngine {
            try SyncEngine(
                store: store, types: types,
                anchorStore: AnchorStore(fileURL: folder.url.appendingPathComponent("state.json")),
                transport: transport ?? outbox, deviceID: "device-1", batchSize: batchSize,
                tempFolder: folder.url.appendingPathComponent("tmp"), inMemoryLimit: 0, now: { F.nine })
        }

        /// Every delivered sample of `type`, over all batches, by UUID.
        func delivered(_ type: String) throws -> [UUID: DecodedBatch.Sample] {
            var samples: [UUID: DecodedBatch.Sample] = [:]
            for id in try outbox.storedBatchIDs() {
                for sample in try batch(id).samples(type) { samples[sample.uuid] = sample }
            }
            return samples
        }

        func batch(_ id: UUID) throws -> DecodedBatch {
            let url = outbox.directory.appendingPathComponent(id.uuidString + ".multipart")
            let batch = try SyncEngineDecodedBatch(multipart: Data(contentsOf: url))
            return try JSONDecoder().decode(DecodedBatch.self, from: batch.jsonData)
        }
    }

    @Test func theEngineSendsEachECGWithItsVoltagesAndEachWorkoutWithItsRoutes() async throws {
        let bench = try await Bench()
        defer { bench.folder.remove() }
        let report = try await bench.engine().sync()
        #expect(report.samples == ["electrocardiogram": 3, "workout": 2, "heartRate": 1])

        let ecgs = try bench.delivered("electrocardiogram")
        #expect(Set(ecgs.keys) == Set(bench.ecgs.map(\.electrocardiogram.uuid)))
        for recording in bench.ecgs {
            let sample = try #require(ecgs[recording.electrocardiogram.uuid])
            #expect(try Self.measurements(sample.voltageMeasurements) == recording.voltageMeasurements)
        }
        let runs = try bench.delivered("workout")
        #expect(runs.count == 2)
        for recording in bench.runs {
            #expect(try Self.routes(try #require(runs[recording.workout.uuid]).routes) == recording.routes)
        }
    }

    @Test func routesAddedToAWorkoutAlreadySentAreSentWithItAgain() async throws {
        let bench = try await Bench(ecgs: 0)
        defer { bench.folder.remove() }
        let bare = try Self.run(hours: 3, uuid: F.uuid(210))
        try bench.store.ingest([.workout(bare.workout)])
        let first = try await bench.engine().sync()
        #expect(first.samples["workout"] == 3)
        #expect(try Self.routes(try #require(try bench.delivered("workout")[bare.workout.uuid]).routes) == [])

        try bench.store.addRoutes(bare.routes, to: bare.workout)
        let second = try await bench.engine().sync()
        #expect(second.restart == nil, "adding routes rewrites no history the sync relies on")
        #expect(second.samples == ["workout": 1])
        let batch = try bench.batch(try #require(second.batchIDs.first))
        let sent = try #require(batch.samples("workout").first)
        #expect(sent.uuid == bare.workout.uuid)
        #expect(try Self.routes(sent.routes) == bare.routes)
    }

    @Test func aBatchTakesAtMostSixteenSamplesThatCarrySeriesAndFillsItsRoomWithOthers() async throws {
        let bench = try await Bench(ecgs: 40)
        defer { bench.folder.remove() }
        let report = try await bench.engine(batchSize: 100).sync()
        #expect(report.samples == ["electrocardiogram": 40, "workout": 2, "heartRate": 1])
        // 16 + 16 + 8 ECGs; the workouts and the heart rate ride in the first batch's room.
        #expect(report.batches == 3)
        let perBatch = try report.batchIDs.map { id in
            let batch = try bench.batch(id)
            return Dictionary(uniqueKeysWithValues: batch.sections.map { ($0.type, $0.samples.count) })
        }
        #expect(perBatch.map { $0["electrocardiogram"] ?? 0 } == [16, 16, 8])
        #expect(perBatch[0]["workout"] == 2 && perBatch[0]["heartRate"] == 1)
        #expect(Set(try bench.delivered("electrocardiogram").keys).count == 40)
    }

    @Test func theReceiverAcceptsTheSeriesTheEngineSends() async throws {
        let bench = try await Bench()
        defer { bench.folder.remove() }
        try await withTestReceiver { receiver in
            let report = try await bench.engine(transport: HTTPTransport(url: receiver.uploadURL)).sync()
            #expect(report.samples == ["electrocardiogram": 3, "workout": 2, "heartRate": 1])
            let stats = try await receiver.stats()
            #expect(stats.rejected == 0, "\(receiver.log)")
            #expect(try await receiver.sampleCounts().count == 6)
        }
    }

    @Test(arguments: [
        (
            "voltage columns of different lengths", "/voltageMeasurements",
            #""voltageMeasurements":{"timeSinceSampleStart":[0,0.5],"microvolts":[1]}"#
        ),
        (
            "voltages out of recording order", "/voltageMeasurements",
            #""voltageMeasurements":{"timeSinceSampleStart":[0.5,0],"microvolts":[1,2]}"#
        ),
        (
            "a route's timestamp without an offset", "/routes/0/locations",
            #""routes":"# + Self.route(timestamp: "2026-11-20T09:00:00Z")
        ),
        ("a latitude beyond 90 degrees", "/routes/0/locations", #""routes":"# + Self.route(latitude: "90.5")),
        (
            "beats not ascending", "/heartbeats",
            #""heartbeats":{"timeSinceSeriesStart":[0.5,0.5],"precededByGap":[false,false]}"#
        ),
        (
            "a gap flag that is not a boolean", "/heartbeats",
            #""heartbeats":{"timeSinceSeriesStart":[0.5],"precededByGap":[0]}"#
        ),
    ])
    func theReceiverRefusesSeriesThatBreakTheSchema(problem: String, field: String, series: String) async throws {
        let ecg = try Self.ecg(count: 2, uuid: F.uuid(50))
        var data = Data()
        var writer = SyncBatchWriter(header: F.header, chunkSize: 64) { data.append(contentsOf: $0) }
        try writer.writeSection(
            .electrocardiogram,
            changes: HealthAnchoredChanges(
                samples: [.electrocardiogram(ecg.electrocardiogram)], deletedObjects: [],
                newAnchor: SyncBatchWriterTests.anchor(1)))
        try writer.writeSection(
            .workout,
            changes: HealthAnchoredChanges(
                samples: [.workout(try Self.run(uuid: F.uuid(51)).workout)], deletedObjects: [],
                newAnchor: SyncBatchWriterTests.anchor(1)))
        try writer.writeSection(
            .heartbeatSeries,
            changes: HealthAnchoredChanges(
                samples: [
                    .heartbeatSeries(
                        try HealthHeartbeatSeries(
                            start: F.nine, end: F.nine.addingTimeInterval(2), count: 2, source: F.watch,
                            uuid: F.uuid(52)))
                ], deletedObjects: [], newAnchor: SyncBatchWriterTests.anchor(1)))
        try writer.finish()
        let name = String(series.prefix { $0 != ":" })
        let json = String(decoding: data, as: UTF8.self).replacingOccurrences(of: name + ":null", with: series)
        try await withTestReceiver { receiver in
            let answer = try await SyncReceiverTests.post(
                SyncReceiverTests.body(json), key: F.batchID, to: receiver)
            #expect(answer.status == 400, "\(problem)")
            #expect(json.contains(series), "\(problem): the document holds the broken series")
            #expect(answer.error?.contains(field) == true, "\(problem): \(answer.error ?? "no error")")
            #expect(try await receiver.stats().batches == 0)
        }
    }

    /// A one-location route's JSON, valid but for what the arguments change.
    static func route(timestamp: String = "2026-11-20T09:00:00+00:00", latitude: String = "52.5") -> String {
        """
        [{"locations":{"timestamp":["\(timestamp)"],"latitude":[\(latitude)],"longitude":[13.4],"altitude":[34],\
        "speed":[-1],"course":[-1],"horizontalAccuracy":[5],"verticalAccuracy":[-1]}}]
        """
    }
}
