import Foundation
import HealthExportTestSupport
import HealthFlow
import Testing

@testable import HealthExport

/// A heart rate variability record's `HeartRateVariabilityMetadataList` becomes a heartbeat series beside the
/// record's sample: every time form exports write, a list crossing midnight, once however often the export is
/// imported; a list with a malformed beat is skipped with the beat's line, and its record is kept.
@Suite(.timeLimit(.minutes(10)))
struct HeartbeatImportTests {
    let app = ExportFixtures.app

    /// A heart rate variability record starting at `start` with one list of `beats` (bpm, time).
    static func record(
        start: String = "2026-03-01 07:42:00 +0100", end: String = "2026-03-01 07:43:04 +0100", value: String = "41.2",
        beats: [(bpm: String, time: String)]
    ) -> String {
        let list = beats.map { "   <InstantaneousBeatsPerMinute bpm=\"\($0.bpm)\" time=\"\($0.time)\"/>\n" }.joined()
        return ExportFixtures.record(
            "HeartRateVariabilitySDNN", unit: "ms", value: value, source: "Apple Watch von Zoë", start: start,
            end: end,
            children: "  <MetadataEntry key=\"HKAlgorithmVersion\" value=\"2\"/>\n"
                + "  <HeartRateVariabilityMetadataList>\n\(list)  </HeartRateVariabilityMetadataList>\n")
    }

    static let morning = record(beats: [("64", "7:42:11.83 AM"), ("66", "7:42:12.74 AM"), ("63", "7:42:13.69 AM")])

    /// The unmapped elements of the records (the fixture's `Me` has an attribute the import does not map).
    static func unmapped(_ report: HealthExportReport) -> [String: Int] {
        report.unmappedElements.filter { !$0.key.hasPrefix("Me@") }
    }

    func importing(_ body: String, into store: some HealthStore) async throws -> HealthExportReport {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(body), in: directory)
        return try await HealthExportImport(path: path).run(into: store)
    }

    static func series(in store: some HealthStore) async throws -> [HealthHeartbeatSeries] {
        try await store.samples(of: .heartbeatSeries).compactMap {
            if case .heartbeatSeries(let series) = $0 { series } else { nil }
        }
    }

    /// Times as exports write them, with their seconds since midnight.
    static let times: [(text: String, seconds: Double)] = [
        ("7:42:11.83 AM", 27_731.83), ("6:14:48.94 PM", 65_688.94), ("3:10:02,11 AM", 11_402.11),
        ("20:14:07.68", 72_847.68), ("08:34:05,10", 30_845.1), ("9:05:01.5\u{202F}PM", 75_901.5),
        ("12:00:00.25 AM", 0.25), ("12:30:00 PM", 45_000), ("0:00:03", 3),
    ]

    @Test(arguments: times.indices)
    func beatTimesInEveryFormExportsWriteAreReadAsTimesOfDay(_ index: Int) throws {
        let (text, seconds) = Self.times[index]
        #expect(abs(try #require(HeartbeatList.timeOfDay(text)) - seconds) < 1e-9)
    }

    @Test(arguments: [
        "", "7:42", "7:42:11.83 XM", "13:00:00 PM", "0:00:00 AM", "24:00:00", "7:60:00", "7:42:60", "7:42:1.5",
        "7:42:11.", "7:42:11.83AM", "+7:42:11", "7:42:11.83 AM ", "٣:10:02",
    ])
    func textThatIsNoTimeOfDayIsRefused(text: String) {
        #expect(HeartbeatList.timeOfDay(text) == nil)
    }

    @Test func aListBecomesASeriesBesideItsRecordAndReimportAddsNothing() async throws {
        let store = InMemoryHealthStore(configuration: app)
        let report = try await importing(Self.morning, into: store)
        #expect(report.imported == ["heartRateVariabilitySDNN": 1, "heartbeatSeries": 1])
        #expect(report.heartbeats == 3)
        #expect(report.skippedCount == 0)
        #expect(Self.unmapped(report).isEmpty, "\(report.unmappedElements)")

        try await store.requestAuthorization(toShare: [], read: [.heartbeatSeries, .heartRateVariabilitySDNN])
        let variability = try #require(try await store.samples(of: .heartRateVariabilitySDNN).first)
        let series = try #require(try await Self.series(in: store).first)
        #expect(series.uuid != variability.uuid)
        #expect(series.startDate == variability.startDate)
        #expect(series.endDate == variability.endDate)
        #expect(series.source == variability.source)
        #expect(series.metadata == variability.metadata)
        #expect(series.metadata[.exportUTCOffset] == .string("+0100"))
        #expect(series.count == 3)
        let beats = try await store.heartbeats(of: series)
        let times = beats.map(\.timeSinceSeriesStart)
        for (time, expected) in zip(times, [11.83, 12.74, 13.69]) { #expect(abs(time - expected) < 1e-6) }
        #expect(beats.count == 3)
        #expect(beats.allSatisfy { !$0.precededByGap })

        let again = try await importing(Self.morning, into: store)
        #expect(again.importedCount == 0)
        #expect(again.alreadyInStore == 2)
        #expect(again.heartbeats == 0)

        let evening = Self.record(
            start: "2026-03-01 18:14:40 +0100", end: "2026-03-01 18:15:40 +0100",
            beats: [("70", "6:14:48.94 PM"), ("71", "6:14:49.79 PM")])
        let newer = try await importing(Self.morning + evening, into: store)
        #expect(newer.imported == ["heartRateVariabilitySDNN": 1, "heartbeatSeries": 1])
        #expect(newer.alreadyInStore == 2)
        #expect(newer.heartbeats == 2)
        #expect(try await Self.series(in: store).count == 2)
    }

    @Test func aListCrossingMidnightRollsItsTimesToTheNextDay() async throws {
        let store = InMemoryHealthStore(configuration: app)
        let body = Self.record(
            start: "2026-03-01 23:59:58 -0500", end: "2026-03-02 00:00:59 -0500",
            beats: [("60", "11:59:58.50 PM"), ("61", "11:59:59.48 PM"), ("60", "12:00:00.47 AM"), ("59", "0:00:01,49")])
        let report = try await importing(body, into: store)
        #expect(report.skippedCount == 0, "\(report.skips)")
        try await store.requestAuthorization(toShare: [], read: [.heartbeatSeries])
        let series = try #require(try await Self.series(in: store).first)
        let times = try await store.heartbeats(of: series).map(\.timeSinceSeriesStart)
        #expect(times.count == 4)
        for (time, expected) in zip(times, [0.5, 1.48, 2.47, 3.49]) { #expect(abs(time - expected) < 1e-6) }
    }

    @Test func aListStartingJustAfterMidnightOfItsRecordsStartIsTheNextDay() async throws {
        let store = InMemoryHealthStore(configuration: app)
        let body = Self.record(
            start: "2026-03-01 23:59:50 +0000", end: "2026-03-02 00:01:00 +0000",
            beats: [("60", "00:00:02.00"), ("60", "00:00:03.00")])
        let report = try await importing(body, into: store)
        #expect(report.skippedCount == 0, "\(report.skips)")
        try await store.requestAuthorization(toShare: [], read: [.heartbeatSeries])
        let series = try #require(try await Self.series(in: store).first)
        #expect(try await store.heartbeats(of: series).map(\.timeSinceSeriesStart) == [12, 13])
    }

    /// One malformed list per problem: the beat that is wrong, and the detail the skip names.
    static let malformed: [(beats: [(bpm: String, time: String)], bad: Int, detail: String)] = [
        ([("64", "7:42:11.83 AM"), ("fast", "7:42:12.74 AM")], 1, "bpm \"fast\" is not a positive number"),
        ([("64", "7:42:11.83 AM"), ("0", "7:42:12.74 AM")], 1, "bpm \"0\" is not a positive number"),
        ([("nan", "7:42:11.83 AM")], 0, "bpm \"nan\" is not a positive number"),
        ([("64", "7:42:11.83 AM"), ("64", "7:42 AM")], 1, "time \"7:42 AM\" is not a time of day"),
        (
            [("64", "7:42:11.83 AM"), ("64", "7:42:10.00 AM")], 1,
            "time \"7:42:10.00 AM\" is not after the beat before it"
        ),
        (
            [("64", "7:42:11.83 AM"), ("64", "7:42:11.83 AM")], 1,
            "time \"7:42:11.83 AM\" is not after the beat before it"
        ),
        ([("64", "7:41:59.00 AM")], 0, "time \"7:41:59.00 AM\" is before the record's start"),
    ]

    @Test(arguments: malformed.indices)
    func aMalformedBeatSkipsItsListWithTheBeatsLineAndKeepsTheRecord(_ index: Int) async throws {
        let (beats, bad, detail) = Self.malformed[index]
        let body = Self.record(beats: beats)
        let store = InMemoryHealthStore(configuration: app)
        let report = try await importing(body, into: store)
        #expect(report.imported == ["heartRateVariabilitySDNN": 1])
        #expect(report.skipped == [.badHeartbeat: 1])
        let skip = try #require(report.skips.first)
        let text = ExportFixtures.export(body)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let beatLine = try #require(lines.firstIndex { $0.contains("InstantaneousBeatsPerMinute") }) + 1 + bad
        #expect(skip.line == beatLine)
        #expect(skip.detail == detail)
        #expect(
            skip.element == "Record HKQuantityTypeIdentifierHeartRateVariabilitySDNN>HeartRateVariabilityMetadataList")
        #expect(Self.unmapped(report).isEmpty)
    }

    @Test func aListWithoutBeatsOrABeatWithoutItsTimeIsSkippedWithItsLine() async throws {
        let body =
            Self.record(beats: [])
            + ExportFixtures.record(
                "HeartRateVariabilitySDNN", unit: "ms", value: "30", start: "2026-03-01 09:00:00 +0100",
                end: "2026-03-01 09:01:00 +0100",
                children: "  <HeartRateVariabilityMetadataList>\n   <InstantaneousBeatsPerMinute bpm=\"60\"/>\n"
                    + "  </HeartRateVariabilityMetadataList>\n")
        let report = try await importing(body, into: InMemoryHealthStore(configuration: app))
        #expect(report.imported == ["heartRateVariabilitySDNN": 2])
        #expect(report.skips.map(\.detail) == ["a list without beats", "a beat without its bpm or time attribute"])
    }

    @Test func aListInARecordOfAnotherTypeIsStillCountedUnmapped() async throws {
        let body = ExportFixtures.record(
            "HeartRate", unit: "count/min", value: "64",
            children:
                "  <HeartRateVariabilityMetadataList>\n   <InstantaneousBeatsPerMinute bpm=\"64\" time=\"10:00:01\"/>\n"
                + "  </HeartRateVariabilityMetadataList>\n")
        let report = try await importing(body, into: InMemoryHealthStore(configuration: app))
        #expect(report.imported == ["heartRate": 1])
        #expect(Self.unmapped(report) == ["Record>HeartRateVariabilityMetadataList": 1])
    }

    @Test func theDurableStoreKeepsImportedBeatsAcrossReopen() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let store = try FileHealthStore(directory: data, configuration: app)
        let report = try await importing(Self.morning, into: store)
        #expect(report.heartbeats == 3)
        store.close()

        let reopened = try FileHealthStore(directory: data, configuration: app)
        defer { reopened.close() }
        try await reopened.requestAuthorization(toShare: [], read: [.heartbeatSeries])
        let series = try #require(try await Self.series(in: reopened).first)
        #expect(try await reopened.heartbeats(of: series).count == 3)
        let again = try await importing(Self.morning, into: reopened)
        #expect(again.importedCount == 0)
        #expect(again.alreadyInStore == 2)
    }
}

extension HeartbeatImportTests {
    @Test func aStoreThatKeepsNoBeatsGetsTheSeriesAloneAndTheReportCountsIt() async throws {
        let store = IngestObservingStore(InMemoryHealthStore(configuration: app))
        let report = try await importing(Self.morning, into: store)
        #expect(report.imported == ["heartRateVariabilitySDNN": 1, "heartbeatSeries": 1])
        #expect(report.heartbeatSeriesWithoutBeats == 1)
        #expect(report.heartbeats == 0)
        try await store.inner.requestAuthorization(toShare: [], read: [.heartbeatSeries])
        let series = try #require(try await Self.series(in: store.inner).first)
        #expect(series.count == 3)
        #expect(try await store.inner.heartbeats(of: series) == [])

        let again = try await importing(Self.morning, into: store)
        #expect(again.importedCount == 0)
        #expect(again.alreadyInStore == 2)
    }
}
