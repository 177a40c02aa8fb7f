import Foundation
import HealthFlow
import HealthSync
import Testing

@Suite struct SyncBatchWriterTests {
    typealias F = SyncFixtures

    @Test func writesEveryFieldOfEveryKindAsParseableJSON() throws {
        let recordedAt = F.nine.addingTimeInterval(0.25)
        let heart = try F.heartRate(
            72,
            metadata: [
                .wasUserEntered: true, "note": "after run", "recordedAt": .date(recordedAt),
                "dose": .quantity(HealthQuantity(unit: .gramUnit(with: .milli), doubleValue: 2.5)),
            ])
        let sleep = HealthSample.category(
            try HealthCategorySample(
                SleepAnalysisValue.asleepCore, start: F.nine.addingTimeInterval(-36_000), end: F.nine,
                source: F.watch, uuid: F.uuid(2)))
        let cuff = HealthSource(bundleIdentifier: "com.example.cuff", name: "Cuff")
        let systolic = try HealthQuantitySample(
            type: .bloodPressureSystolic, quantity: HealthQuantity(unit: .millimeterOfMercury(), doubleValue: 120),
            date: F.nine, source: cuff, uuid: F.uuid(4))
        let diastolic = try HealthQuantitySample(
            type: .bloodPressureDiastolic, quantity: HealthQuantity(unit: .millimeterOfMercury(), doubleValue: 80),
            date: F.nine, source: cuff, uuid: F.uuid(5))
        let pressure = HealthSample.correlation(
            try HealthCorrelation(
                type: .bloodPressure, start: F.nine, end: F.nine, objects: [systolic, diastolic], source: cuff,
                uuid: F.uuid(3)))
        let ecg = HealthSample.electrocardiogram(
            try HealthElectrocardiogram(
                start: F.nine, end: F.nine.addingTimeInterval(30), classification: .sinusRhythm,
                symptomsStatus: .none,
                averageHeartRate: HealthQuantity(unit: .count().unitDivided(by: .second()), doubleValue: 1.1),
                samplingFrequency: HealthQuantity(unit: .hertz(), doubleValue: 512), numberOfVoltageMeasurements: 15360,
                source: F.watch, uuid: F.uuid(6)))
        let deleted = HealthDeletedObject(
            uuid: F.uuid(9), metadata: [.syncIdentifier: "abc", .syncVersion: 2])

        let data = try F.encode([
            (.heartRate, [heart], [deleted]), (.sleepAnalysis, [sleep], []), (.bloodPressure, [pressure], []),
            (.electrocardiogram, [ecg], []),
        ])
        let root = try F.json(data)
        #expect(root["schemaVersion"] as? Int == 1)
        #expect(root["batchID"] as? String == F.batchID.uuidString)
        #expect(root["deviceID"] as? String == "device-1")
        #expect(root["createdAt"] as? String == "2026-11-20T10:00:00+00:00")
        let sections = try #require(root["sections"] as? [[String: Any]])
        #expect(
            sections.map { $0["type"] as? String } == [
                "heartRate", "sleepAnalysis", "bloodPressure", "electrocardiogram",
            ])

        let quantity = try #require((sections[0]["samples"] as? [[String: Any]])?.first)
        #expect(quantity["uuid"] as? String == F.uuid(1).uuidString)
        #expect(quantity["type"] as? String == "heartRate")
        #expect(quantity["kind"] as? String == "quantity")
        #expect(quantity["start"] as? String == "2026-11-20T09:00:00+00:00")
        #expect(quantity["end"] as? String == "2026-11-20T09:00:00+00:00")
        #expect(quantity["source"] as? [String: String] == ["bundleIdentifier": "com.example.watch", "name": "Watch"])
        #expect(quantity["value"] as? Double == 72)
        #expect(quantity["unit"] as? String == "count/min")
        let metadata = try #require(quantity["metadata"] as? [String: [String: Any]])
        #expect(metadata["HKWasUserEntered"]?["number"] as? Double == 1)
        #expect(metadata["note"]?["string"] as? String == "after run")
        #expect(metadata["recordedAt"]?["date"] as? String == "2026-11-20T09:00:00.250+00:00")
        let dose = try #require(metadata["dose"]?["quantity"] as? [String: Any])
        #expect(dose["value"] as? Double == 2.5)
        #expect(dose["unit"] as? String == "mg")
        let deletions = try #require(sections[0]["deleted"] as? [[String: Any]])
        #expect(deletions.count == 1)
        #expect(deletions[0]["uuid"] as? String == F.uuid(9).uuidString)
        let deletedMetadata = try #require(deletions[0]["metadata"] as? [String: [String: Any]])
        #expect(deletedMetadata["HKMetadataKeySyncIdentifier"]?["string"] as? String == "abc")
        #expect(deletedMetadata["HKMetadataKeySyncVersion"]?["number"] as? Double == 2)

        let category = try #require((sections[1]["samples"] as? [[String: Any]])?.first)
        #expect(category["kind"] as? String == "category")
        #expect(category["value"] as? Int == SleepAnalysisValue.asleepCore.rawValue)
        #expect(category["start"] as? String == "2026-11-19T23:00:00+00:00")
        #expect((sections[1]["deleted"] as? [Any])?.isEmpty == true)

        let correlation = try #require((sections[2]["samples"] as? [[String: Any]])?.first)
        #expect(correlation["kind"] as? String == "correlation")
        #expect(correlation["uuid"] as? String == F.uuid(3).uuidString)
        let members = try #require(correlation["members"] as? [[String: Any]])
        #expect(members.map { $0["type"] as? String } == ["bloodPressureDiastolic", "bloodPressureSystolic"])
        #expect(members.map { $0["value"] as? Double } == [80, 120])
        #expect(members.map { $0["unit"] as? String } == ["mmHg", "mmHg"])
        #expect(members.map { $0["uuid"] as? String } == [F.uuid(5).uuidString, F.uuid(4).uuidString])
        #expect(members[0]["source"] as? [String: String] == ["bundleIdentifier": "com.example.cuff", "name": "Cuff"])

        let electrocardiogram = try #require((sections[3]["samples"] as? [[String: Any]])?.first)
        #expect(electrocardiogram["kind"] as? String == "electrocardiogram")
        #expect(electrocardiogram["end"] as? String == "2026-11-20T09:00:30+00:00")
        #expect(electrocardiogram["classification"] as? String == "sinusRhythm")
        #expect(electrocardiogram["symptomsStatus"] as? String == "none")
        let rate = try #require(electrocardiogram["averageHeartRate"] as? [String: Any])
        #expect(rate["value"] as? Double == 1.1)
        #expect(rate["unit"] as? String == "count/s")
        let frequency = try #require(electrocardiogram["samplingFrequency"] as? [String: Any])
        #expect(frequency["value"] as? Double == 512)
        #expect(frequency["unit"] as? String == "Hz")
        #expect(electrocardiogram["numberOfVoltageMeasurements"] as? Int == 15360)
        #expect((electrocardiogram["metadata"] as? [String: Any])?.isEmpty == true)
    }

    @Test func writesStableGoldenBytesForASmallBatch() throws {
        let sample = try F.heartRate(72.5, metadata: ["b": 1, "a": "x"])
        let data = try F.encode([(.heartRate, [sample], [HealthDeletedObject(uuid: F.uuid(2))])])
        let golden =
            #"{"schemaVersion":1,"batchID":"6F1E3C1A-8B0D-4C55-9D5B-2C1F0E7A9B10","deviceID":"device-1","#
            + #""createdAt":"2026-11-20T10:00:00+00:00","sections":[{"type":"heartRate","samples":[{"#
            + #""uuid":"00000000-0000-4000-8000-000000000001","type":"heartRate","kind":"quantity","#
            + #""start":"2026-11-20T09:00:00+00:00","end":"2026-11-20T09:00:00+00:00","#
            + #""source":{"bundleIdentifier":"com.example.watch","name":"Watch"},"value":72.5,"unit":"count/min","#
            + #""metadata":{"a":{"string":"x"},"b":{"number":1}}}],"#
            + #""deleted":[{"uuid":"00000000-0000-4000-8000-000000000002","metadata":{}}]}]}"#
        #expect(String(decoding: data, as: UTF8.self) == golden)
        // Chunking never changes the bytes.
        let oneByteChunks = try F.encode([(.heartRate, [sample], [HealthDeletedObject(uuid: F.uuid(2))])], chunkSize: 1)
        let bigChunks = try F.encode(
            [(.heartRate, [sample], [HealthDeletedObject(uuid: F.uuid(2))])], chunkSize: 1 << 20)
        #expect(oneByteChunks == data)
        #expect(bigChunks == data)
    }

    @Test func writesAnEmptyBatch() throws {
        let data = try F.encode([])
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"schemaVersion":1,"batchID":"6F1E3C1A-8B0D-4C55-9D5B-2C1F0E7A9B10","deviceID":"device-1","#
                + #""createdAt":"2026-11-20T10:00:00+00:00","sections":[]}"#)
    }

    @Test func escapesQuotesBackslashesControlCharactersAndKeepsUTF8() throws {
        let name = "Ann \"A\" \\ line\nfeed\ttab\r\u{08}\u{0C}\u{01}\u{1F}\u{7F} é 心 😀"
        let source = HealthSource(bundleIdentifier: "com.example.\"odd\"", name: name)
        let sample = try F.heartRate(60, source: source, metadata: ["k\"ey\n": .string(name)])
        let data = try F.encode([(.heartRate, [sample], [])])
        let text = String(decoding: data, as: UTF8.self)
        let escaped = #"Ann \"A\" \\ line\nfeed\ttab\r\b\f\u0001\u001f"# + "\u{7F} é 心 😀"
        #expect(text.contains(#""name":""# + escaped + #"""#))
        #expect(text.contains(#""bundleIdentifier":"com.example.\"odd\"""#))
        #expect(text.contains(#"{"k\"ey\n":{"string":""# + escaped + #""}}"#))
        #expect(!data.contains(0x0A) && !data.contains(0x09) && !data.contains(0x01))
        let root = try F.json(data)
        let parsed = try #require(((root["sections"] as? [[String: Any]])?[0]["samples"] as? [[String: Any]])?[0])
        #expect((parsed["source"] as? [String: String])?["name"] == name)
        #expect(((parsed["metadata"] as? [String: Any])?["k\"ey\n"] as? [String: String])?["string"] == name)
    }

    @Test func writesTimestampsWithTheZoneOffsetAndMilliseconds() throws {
        let sample = try F.heartRate(60, at: F.nine.addingTimeInterval(0.5))
        for (zone, expected) in [
            (TimeZone(secondsFromGMT: 19_800), "2026-11-20T14:30:00.500+05:30"),
            (TimeZone(secondsFromGMT: -18_000), "2026-11-20T04:00:00.500-05:00"),
        ] {
            var data = Data()
            var writer = SyncBatchWriter(header: F.header, timeZone: try #require(zone)) { data.append(contentsOf: $0) }
            try writer.writeSection(
                .heartRate,
                changes: HealthAnchoredChanges(samples: [sample], deletedObjects: [], newAnchor: try Self.anchor(1)))
            try writer.finish()
            #expect(String(decoding: data, as: UTF8.self).contains(#""start":""# + expected + #"""#))
        }
    }

    @Test func rejectsNonFiniteNumbersWithATypedError() throws {
        for bad in [Double.nan, .infinity, -.infinity] {
            var writer = SyncBatchWriter(header: F.header) { _ in }
            try writer.beginSection(.heartRate)
            #expect(throws: SyncSerializationError.nonFiniteNumber(field: "deleted[].metadata.x")) {
                try writer.writeDeleted(HealthDeletedObject(uuid: F.uuid(1), metadata: ["x": .number(bad)]))
            }
        }
    }

    @Test func rejectsCallsOutOfOrderAndSamplesOfAnotherType() throws {
        var writer = SyncBatchWriter(header: F.header) { _ in }
        #expect(throws: SyncSerializationError.self) { try writer.writeSample(try F.heartRate(60)) }
        try writer.beginSection(.stepCount)
        #expect(throws: SyncSerializationError.sectionTypeMismatch(section: "stepCount", sample: "heartRate")) {
            try writer.writeSample(try F.heartRate(60))
        }
        try writer.beginSection(.heartRate)
        try writer.writeDeleted(HealthDeletedObject(uuid: F.uuid(2)))
        #expect(throws: SyncSerializationError.self) { try writer.writeSample(try F.heartRate(60)) }
        try writer.finish()
        #expect(throws: SyncSerializationError.misuse("finish called twice")) { try writer.finish() }
    }

    @Test func passesTheSinksErrorThrough() throws {
        struct Full: Error {}
        var writer = SyncBatchWriter(header: F.header, chunkSize: 64) { _ in throw Full() }
        #expect(throws: Full.self) {
            try writer.beginSection(.heartRate)
            for _ in 0..<10 { try writer.writeSample(try F.heartRate(60)) }
        }
    }

    @Test func streamsOneHundredThousandSamplesInSmallChunks() throws {
        let chunkSize = 16_384
        var chunks = 0
        var largest = 0
        var total = 0
        var tail: [UInt8] = []
        var chunksBeforeFinish = 0
        var writer = SyncBatchWriter(header: F.header, chunkSize: chunkSize) { chunk in
            chunks += 1
            largest = max(largest, chunk.count)
            total += chunk.count
            tail = Array((tail + chunk).suffix(32))
        }
        try writer.beginSection(.heartRate)
        let base = try F.heartRate(60)
        guard case .quantity(let template) = base else { return }
        for index in 0..<100_000 {
            let sample = try HealthQuantitySample(
                type: .heartRate,
                quantity: HealthQuantity(unit: template.quantity.unit, doubleValue: Double(40 + index % 120)),
                date: F.nine.addingTimeInterval(Double(index)), source: F.watch, uuid: F.uuid(index))
            try writer.writeSample(.quantity(sample))
            // Bytes leave the writer as they are produced: it never holds more than one chunk.
            if index % 1000 == 0 { #expect(writer.byteCount - Int64(total) <= Int64(chunkSize)) }
        }
        chunksBeforeFinish = chunks
        let length = try writer.finish()
        #expect(length == Int64(total))
        #expect(total > 20_000_000)
        #expect(largest <= chunkSize)
        #expect(chunks >= total / chunkSize)
        #expect(chunksBeforeFinish >= chunks - 1)
        #expect(String(decoding: tail, as: UTF8.self).hasSuffix("}}],\"deleted\":[]}]}"))
    }

    static func anchor(_ sequence: UInt64) throws -> HealthQueryAnchor {
        try JSONDecoder().decode(HealthQueryAnchor.self, from: Data("\(sequence)".utf8))
    }
}
