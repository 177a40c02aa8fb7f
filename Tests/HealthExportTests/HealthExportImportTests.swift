import Foundation
import HealthFlow
import Testing

@testable import HealthExport

/// Ten minutes, longer than a whole `swift test` here (5–6 min): a hang guard that cannot fire on a test that only
/// waits. Swift Testing counts the time a test waits for the cooperative pool (two threads on a two-core machine),
/// which long synchronous tests running children can hold for minutes.
@Suite(.timeLimit(.minutes(10)))
struct HealthExportImportTests {
    let app = HealthAppConfiguration(
        bundleIdentifier: "com.example.importer", name: "Importer", healthShareUsageDescription: "Reads.",
        healthUpdateUsageDescription: "Writes.")

    static let body =
        ExportFixtures.record("StepCount", children: "  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n")
        + ExportFixtures.record("HeartRate", unit: "count/min", value: "72", end: "2024-03-01 10:00:00 +0100")
        + ExportFixtures.record("BloodGlucose", unit: "mmol&lt;180.1558800000541&gt;/L", value: "5.4")
        + ExportFixtures.record(
            "HeartRateVariabilitySDNN", unit: "ms", value: "41",
            children:
                "  <HeartRateVariabilityMetadataList>\n   <InstantaneousBeatsPerMinute bpm=\"62\" time=\"10:00:01\"/>\n  </HeartRateVariabilityMetadataList>\n"
        )
        + " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Apple Watch von Zoë\" startDate=\"2024-03-01 01:00:00 +0100\" endDate=\"2024-03-01 02:30:00 +0100\" value=\"HKCategoryValueSleepAnalysisAsleepREM\"/>\n"
        + ExportFixtures.bloodPressureMembers + ExportFixtures.bloodPressure + ExportFixtures.workout
        + ExportFixtures.activitySummary + " <ClinicalRecord type=\"HKClinicalTypeIdentifierLabResultRecord\"/>\n"

    @Test func importsEveryKindOfElementFaithfully() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(Self.body), in: directory)
        try ExportFixtures.writeRoute(in: directory)
        let store = InMemoryHealthStore(configuration: app)
        let report = try await HealthExportImport(path: path).run(into: store)

        #expect(report.imported["stepCount"] == 1)
        #expect(report.imported["heartRate"] == 1)
        #expect(report.imported["bloodGlucose"] == 1)
        #expect(report.imported["sleepAnalysis"] == 1)
        #expect(report.imported["bloodPressure"] == 1)
        #expect(report.imported["bloodPressureSystolic"] == nil)
        #expect(report.correlationMembersMerged == 2)
        #expect(report.imported["heartRateVariabilitySDNN"] == 1)
        #expect(report.unknownTypes.isEmpty, "\(report.unknownTypes)")
        #expect(report.unmappedElements["Record>HeartRateVariabilityMetadataList"] == nil, "the beats are mapped")
        #expect(report.imported["heartbeatSeries"] == 1)
        #expect(report.heartbeats == 1)
        #expect(report.unmappedElements["ClinicalRecord"] == 1)
        #expect(report.unmappedElements["Me@HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse"] == 1)
        #expect(report.skippedCount == 0)

        let steps = try await store.samples(of: .stepCount)
        let step = try #require(steps.first)
        #expect(step.source.name == "Zoë’s iPhone")
        #expect(step.metadata[.wasUserEntered] == .number(1))
        #expect(step.metadata[.exportUTCOffset] == .string("+0100"))
        #expect(step.metadata[.exportSourceVersion] == .string("17.2"))
        #expect(step.startDate == Date(timeIntervalSince1970: 1_709_283_600))
        let glucose = try #require(try await store.samples(of: .bloodGlucose).first)
        if case .quantity(let sample) = glucose {
            #expect(abs(try sample.quantity.doubleValue(for: HealthUnit(from: "mg/dL")) - 97.28) < 0.01)
        }
        let sleep = try #require(try await store.samples(of: .sleepAnalysis).first)
        if case .category(let sample) = sleep { #expect(sample.value == SleepAnalysisValue.asleepREM.rawValue) }
        #expect(try await store.samples(of: .bloodPressureSystolic).count == 1)
        let variability = try #require(try await store.samples(of: .heartRateVariabilitySDNN).first)
        if case .quantity(let sample) = variability {
            #expect(abs(try sample.quantity.doubleValue(for: .second()) - 0.041) < 1e-12)
        }

        #expect(report.imported["workout"] == 1)
        guard case .workout(let workout)? = try await store.samples(of: .workout).first else {
            Issue.record("no workout stored")
            return
        }
        #expect(workout.activityType == .running)
        #expect(workout.metadata[.exportWorkoutRoutes] == .string("/workout-routes/route_2024-03-01_6.30pm.gpx"))
        #expect(workout.events.count == 1)
        #expect(workout.statistics.first?.sum == HealthQuantity(unit: .kilocalorie(), doubleValue: 310.5))
        #expect(workout.activities.first?.statistics.first?.maximum?.value == 176)
        #expect(report.activitySummaries.first?.dateString == "2024-03-01")
        #expect(report.characteristics?.biologicalSex == .female)
        #expect(report.characteristics?.bloodType == .abNegative)
        #expect(report.characteristics?.fitzpatrickSkinType == .typeIII)
        #expect(report.characteristics?.dateOfBirth?.year == 1988)
    }

    @Test func reimportingAddsNothingAndANewerExportAddsOnlyWhatIsNew() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try ExportFixtures.write(ExportFixtures.export(Self.body), in: directory)
        let store = try FileHealthStore(directory: directory.appendingPathComponent("store"), configuration: app)
        defer { store.close() }
        let initial = try await HealthExportImport(path: first).run(into: store)
        let again = try await HealthExportImport(path: first).run(into: store)
        #expect(again.importedCount == 0)
        #expect(again.alreadyInStore == initial.importedCount)

        let newer =
            Self.body
            + ExportFixtures.record(
                "StepCount", value: "300", start: "2024-03-02 10:00:00 +0100", end: "2024-03-02 10:05:00 +0100")
        let second = try ExportFixtures.write(ExportFixtures.export(newer), named: "newer.xml", in: directory)
        let update = try await HealthExportImport(path: second).run(into: store)
        #expect(update.imported == ["stepCount": 1])
        #expect(try await store.samples(of: .stepCount).count == 2)
    }

    /// The disk-backed store takes an export's samples as the durable store does — a heartbeat series with its
    /// beats, a workout with its route — keeps them across a reopening, and adds nothing on a re-import.
    @Test func aDiskBackedStoreImportsKeepsAndReimportsAnExport() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(Self.body), in: directory)
        try ExportFixtures.writeRoute(in: directory)
        let segments = FileSystemPath(directory.appendingPathComponent("segments").path)
        let types: [HealthObjectType] = [
            .stepCount, .heartRate, .bloodGlucose, .sleepAnalysis, .bloodPressure, .bloodPressureSystolic,
            .heartRateVariabilitySDNN, .heartbeatSeries, .workout,
        ]
        func counts(_ store: some HealthStore) async throws -> [HealthObjectType: Int] {
            var counts: [HealthObjectType: Int] = [:]
            for type in types { counts[type] = try await store.samples(of: type).count }
            return counts
        }
        let reference = InMemoryHealthStore(configuration: app)
        let expected = try await HealthExportImport(path: path).run(into: reference)

        let backend = try SegmentedHealthStoreBackend(directory: segments)
        let first = BackedHealthStore(backend: backend, configuration: app)
        let report = try await HealthExportImport(path: path).run(into: first)
        #expect(report.imported == expected.imported)
        #expect(report.skippedCount == 0)
        #expect(report.heartbeatSeriesWithoutBeats == 0)
        #expect(report.workoutRoutesNotKept == 0)
        #expect(report.heartbeats == expected.heartbeats && report.heartbeats > 0)
        #expect(report.workoutRoutes == expected.workoutRoutes && report.workoutRoutes == 1)
        #expect(report.routeLocations == expected.routeLocations)
        #expect(try await counts(first) == counts(reference))
        #expect(try await counts(first).values.allSatisfy { $0 == 1 })
        let steps = try await first.samples(of: .stepCount)
        #expect(steps == (try await reference.samples(of: .stepCount)))
        backend.close()  // copies of a backend share it

        let reopened = BackedHealthStore(
            backend: try SegmentedHealthStoreBackend(directory: segments), configuration: app)
        // A new store's answers to authorization last as long as it does: ask again to read.
        try await reopened.requestAuthorization(toShare: [], read: Set(types).subtracting([.bloodPressure]))
        #expect(try await counts(reopened) == counts(reference))
        for case .workout(let workout) in try await reference.samples(of: .workout) {
            #expect(try await reopened.workoutRoutes(of: workout) == reference.workoutRoutes(of: workout))
        }
        for case .heartbeatSeries(let series) in try await reference.samples(of: .heartbeatSeries) {
            #expect(try await reopened.heartbeats(of: series) == reference.heartbeats(of: series))
        }
        let again = try await HealthExportImport(path: path).run(into: reopened)
        #expect(again.importedCount == 0)
        #expect(again.alreadyInStore == report.importedCount)
        #expect(again.workoutRoutes == 0, "the workout holds its route: a re-import adds none")
        #expect(try await counts(reopened) == counts(reference))
    }

    /// A store that hides every type from reading gives the look-ups nothing: the batch is halved around the
    /// UUIDs the store refuses, and still nothing is added twice.
    @Test func reimportingIntoAStoreThatHidesReadsAddsNothing() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(Self.body), in: directory)
        let store = InMemoryHealthStore(configuration: app, policy: .denyAll)
        let first = try await HealthExportImport(path: path).run(into: store)
        let newer =
            Self.body
            + ExportFixtures.record(
                "StepCount", value: "7", start: "2024-03-03 10:00:00 +0100", end: "2024-03-03 10:05:00 +0100")
        let second = try await HealthExportImport(
            path: try ExportFixtures.write(ExportFixtures.export(newer), named: "newer.xml", in: directory)
        ).run(into: store)
        #expect(first.importedCount == 8, "six records, a workout and a heartbeat series")
        #expect(second.imported == ["stepCount": 1])
        #expect(second.alreadyInStore == 8)
    }

    @Test(arguments: [false, true])
    func readsExportZipDirectlyWithDeflateAndZip64(zip64: Bool) async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var zip = TestZipWriter()
        zip.add("apple_health_export/export_cda.xml", Array("<ClinicalDocument/>".utf8), method: .stored, zip64: zip64)
        zip.add("apple_health_export/export.xml", Array(ExportFixtures.export(Self.body).utf8), zip64: zip64)
        let path = directory.appendingPathComponent("export.zip").path
        try Data(zip.finished(zip64: zip64)).write(to: URL(fileURLWithPath: path))
        let report = try await HealthExportImport(path: path).run(into: InMemoryHealthStore(configuration: app))
        #expect(report.importedCount == 8)
        #expect(report.totalBytes == Int64(try Data(contentsOf: URL(fileURLWithPath: path)).count))
    }

    /// Records in a run that differ only in source version, device or UTC offset each keep their own (their
    /// metadata starts from a dictionary shared by records alike), and an entry named like a key the import adds
    /// gives way to the attribute when there is one and is kept when there is none.
    @Test func eachRecordKeepsItsOwnAttributeMetadataAndAttributesWinOverEntriesOfTheirName() async throws {
        func record(_ minute: Int, version: String?, device: String?, offset: String, entry: String = "") -> String {
            let start = String(format: "2024-03-01 10:%02d:00 %@", minute, offset)
            let end = String(format: "2024-03-01 10:%02d:30 %@", minute, offset)
            return " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\""
                + (version.map { " sourceVersion=\"\($0)\"" } ?? "") + (device.map { " device=\"\($0)\"" } ?? "")
                + " unit=\"count\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(minute + 1)\">\(entry)</Record>\n"
        }
        let entry = "<MetadataEntry key=\"HealthExportDevice\" value=\"written as an entry\"/>"
        let body = [
            record(0, version: "17.2", device: "a long device description, the first of two", offset: "+0100"),
            record(1, version: "17.2", device: "a long device description, the first of two", offset: "+0100"),
            record(2, version: "17.3", device: "a long device description, the first of two", offset: "+0100"),
            record(3, version: "17.3", device: "a long device description, the other of two", offset: "+0100"),
            record(4, version: "17.3", device: "a long device description, the other of two", offset: "-0500"),
            record(5, version: nil, device: nil, offset: "-0500"),
            record(
                6, version: "17.3", device: "a long device description, the other of two", offset: "-0500", entry: entry
            ),
            record(7, version: "17.3", device: nil, offset: "-0500", entry: entry),
            record(8, version: "17.3", device: "a long device description, the other of two", offset: "-0500"),
        ].joined()
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(body), in: directory)
        let store = InMemoryHealthStore(configuration: app)
        let report = try await HealthExportImport(path: path).run(into: store)
        #expect(report.imported["stepCount"] == 9)
        let samples = try await store.samples(of: .stepCount).sorted { $0.startDate < $1.startDate }
        func text(_ value: MetadataValue?) -> String {
            guard case .string(let text)? = value else { return "-" }
            return text
        }
        let seen = samples.map {
            [
                text($0.metadata[.exportSourceVersion]), text($0.metadata[.exportDevice]),
                text($0.metadata[.exportUTCOffset]),
            ]
            .joined(separator: "|")
        }
        let first = "a long device description, the first of two"
        let other = "a long device description, the other of two"
        #expect(
            seen == [
                "17.2|\(first)|+0100", "17.2|\(first)|+0100", "17.3|\(first)|+0100", "17.3|\(other)|+0100",
                "17.3|\(other)|-0500", "-|-|-0500", "17.3|\(other)|-0500", "17.3|written as an entry|-0500",
                "17.3|\(other)|-0500",
            ])
        #expect(samples.allSatisfy { $0.metadata[.exportCreationDate] == nil })
    }

    @Test func readsAnUnpackedExportFolder() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try ExportFixtures.write(ExportFixtures.export(Self.body), in: folder)
        let report = try await HealthExportImport(path: directory.path).run(
            into: InMemoryHealthStore(configuration: app))
        #expect(report.imported["stepCount"] == 1)
    }

    @Test func skipsEachMalformedRecordWithItsLineAndContinues() async throws {
        let bad = [
            ExportFixtures.record("StepCount", start: "2024-03-01T10:00:00Z"),  // badDate
            ExportFixtures.record("StepCount", value: "1,5"),  // badNumber
            ExportFixtures.record("StepCount", unit: "furlong"),  // unknownUnit
            ExportFixtures.record("StepCount", unit: "kg"),  // unitNotForType
            ExportFixtures.record("StepCount", start: "2024-03-01 11:00:00 +0100"),  // endBeforeStart
            ExportFixtures.record("StepCount", unit: nil),  // missingAttribute
            ExportFixtures.record("StepCount", value: "-3"),  // invalidValue
            """
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="x" startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 08:00:00 +0100">
            \(ExportFixtures.record("BloodPressureSystolic", unit: "mmHg", value: "118", start: "2024-03-01 08:00:00 +0100", end: "2024-03-01 08:00:00 +0100")) </Correlation>

            """,
        ]
        let good = ExportFixtures.record("StepCount", value: "9")
        let text = ExportFixtures.export(bad.joined() + good)
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(text, in: directory)
        let skipFile = directory.appendingPathComponent("skipped.tsv").path
        let report = try await HealthExportImport(path: path, options: HealthExportOptions(skipReportPath: skipFile))
            .run(into: InMemoryHealthStore(configuration: app))

        #expect(report.imported == ["stepCount": 1])
        // badHeader and truncated are the ECG CSVs' reasons: ElectrocardiogramImportTests skips a file for each;
        // missingFile and badRoute are the route files': WorkoutRouteImportTests skips one for each; badHeartbeat
        // is a heartbeat list's, whose record is kept: HeartbeatImportTests skips one for each malformed beat.
        // notUTF8 needs bytes no Swift string holds: anAttributeThatIsNotUTF8SkipsItsElementWithItsLine skips some;
        // ambiguousFile is a route file's: WorkoutRouteImportTests skips one.
        let fileReasons: Set<HealthExportSkip.Reason> = [
            .badHeader, .truncated, .missingFile, .badRoute, .badHeartbeat, .notUTF8, .ambiguousFile,
        ]
        #expect(report.skips.map(\.reason) == HealthExportSkip.Reason.allCases.filter { !fileReasons.contains($0) })
        let headerLines = ExportFixtures.header.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(report.skips.first?.line == headerLines)
        let logged = try String(contentsOfFile: skipFile, encoding: .utf8).split(separator: "\n")
        #expect(logged.count == 1 + bad.count)
        #expect(logged[1].hasPrefix("\(headerLines)\tbadDate\tRecord HKQuantityTypeIdentifierStepCount"))
    }

    @Test func decodesEntitiesAndCharacterReferencesInAttributes() async throws {
        let record = ExportFixtures.record("StepCount", source: "Zo&#235; &amp; &#x1F3C3; &quot;&lt;&gt;&apos;")
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(record), in: directory)
        let store = InMemoryHealthStore(configuration: app)
        _ = try await HealthExportImport(path: path).run(into: store)
        #expect(try await store.samples(of: .stepCount).first?.source.name == "Zoë & 🏃 \"<>'")
    }

    /// A record with an attribute value that is not UTF-8 — short, long, with a reference (the scanner's cache of decoded
    /// values), or in a child — is skipped as malformed with its line, never stored with U+FFFD.
    @Test func anAttributeThatIsNotUTF8SkipsItsElementWithItsLine() async throws {
        var body: [UInt8] = []
        var badLines: [Int] = []
        let headerLines = ExportFixtures.header.split(separator: "\n", omittingEmptySubsequences: false).count
        func add(_ record: String, bad: Bool = false) {
            if bad { badLines.append(headerLines + body.filter { $0 == 0x0A }.count) }
            // "\u{1}" marks the byte 0xEB (ë in Latin-1), which is not UTF-8 on its own.
            body += record.utf8.map { $0 == 0x01 ? 0xEB : $0 }
        }
        add(ExportFixtures.record("StepCount", value: "1", source: "Zo\u{1}"), bad: true)
        add(ExportFixtures.record("StepCount", value: "2"))
        add(ExportFixtures.record("StepCount", value: "3", source: "Zo\u{1}’s iPhone (long enough)"), bad: true)
        add(ExportFixtures.record("StepCount", value: "4", source: "Zo\u{1} &amp; Co"), bad: true)
        add(
            ExportFixtures.record(
                "StepCount", value: "5", children: "  <MetadataEntry key=\"k\" value=\"\u{1}\"/>\n"), bad: true)
        add(ExportFixtures.record("StepCount", value: "6", source: "Zoë"))
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("export.xml").path
        try Data(Array(ExportFixtures.header.utf8) + body + Array("</HealthData>\n".utf8)).write(
            to: URL(fileURLWithPath: path))
        let store = InMemoryHealthStore(configuration: app)
        let report = try await HealthExportImport(path: path).run(into: store)

        #expect(report.imported == ["stepCount": 2])
        #expect(report.skipped == [.notUTF8: 4])
        #expect(report.skips.map(\.line) == badLines)
        #expect(report.skips.first?.detail.contains("sourceName") == true, "\(report.skips)")
        let sources = try await store.samples(of: .stepCount).map(\.source.name).sorted()
        #expect(sources == ["Zoë", "Zoë’s iPhone"])
    }

    /// A record repeated more than a batch later is counted as repeated within the export, not as imported
    /// before; run again, every record is counted as already in the store.
    @Test func aRecordRepeatedBatchesLaterIsARepeatNotAnEarlierImport() async throws {
        let repeated = ExportFixtures.record("StepCount", value: "7")
        let others = (0..<25).map { ExportFixtures.record("HeartRate", unit: "count/min", value: "\(60 + $0)") }
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(
            ExportFixtures.export(repeated + others.joined() + repeated + repeated), in: directory)
        let store = InMemoryHealthStore(configuration: app)
        let options = HealthExportOptions(batchSize: 10)
        let first = try await HealthExportImport(path: path, options: options).run(into: store)
        #expect(first.imported == ["stepCount": 1, "heartRate": 25])
        #expect(first.repeatedInExport == 2)
        #expect(first.alreadyInStore == 0)

        let again = try await HealthExportImport(path: path, options: options).run(into: store)
        #expect(again.imported.isEmpty)
        #expect(again.alreadyInStore + again.repeatedInExport == 28)
        #expect(again.alreadyInStore >= 26)
    }
}
