import Foundation
import HealthExportTestSupport
import HealthFlow
import Testing

@testable import HealthExport

/// The export's ECG CSVs become ECGs whose voltage measurements the store keeps: from a zip and a folder, into
/// the in-memory and the durable store, once however often the export is imported; a CSV that cannot be read
/// is skipped with its file and line.
@Suite(.timeLimit(.minutes(10)))
struct ElectrocardiogramImportTests {
    let app = ExportFixtures.app

    /// Voltages of a one-second recording at 512 Hz, three decimals as the Health app writes them.
    static func voltages(count: Int = 512, phase: Double = 0) -> [String] {
        (0..<count).map { index in String(format: "%.3f", sin(Double(index) / 7 + phase) * 640 - 12.5) }
    }

    /// An ECG CSV as the Health app writes it.
    static func csv(
        recorded: String = "2024-03-01 09:14:40 +0100", classification: String = "Sinus Rhythm",
        symptoms: String = "", unit: String = "µV", rate: String = "512 hertz", voltages: [String] = voltages(),
        extraHeader: String = ""
    ) -> String {
        let header = [
            "Name,Zoë Müller-Łukasiewicz", "Date of Birth,\"Feb 5, 1952\"", "Recorded Date,\(recorded)",
            "Classification,\(classification)", "Symptoms,\(symptoms)", "Software Version,1.90",
            "Device,\"Watch6,7\"", "Sample Rate,\(rate)", "", "", "Lead,Lead I", "Unit,\(unit)", "",
        ]
        return (header + (extraHeader.isEmpty ? [] : [extraHeader]) + voltages).joined(separator: "\n") + "\n"
    }

    static let exportXML = ExportFixtures.export(ExportFixtures.record("StepCount"))

    /// A folder `apple_health_export/` with export.xml and `electrocardiograms/` holding `files`.
    static func folder(_ files: [String: String]) throws -> URL {
        let root = try ExportFixtures.temporaryDirectory()
        let export = root.appendingPathComponent("apple_health_export")
        let ecgs = export.appendingPathComponent("electrocardiograms")
        try FileManager.default.createDirectory(at: ecgs, withIntermediateDirectories: true)
        _ = try ExportFixtures.write(exportXML, in: export)
        for (name, text) in files { _ = try ExportFixtures.write(text, named: name, in: ecgs) }
        return root
    }

    static func microvolts(_ lines: [String]) -> [Double] { lines.map { Double($0)! } }

    @Test func zipImportKeepsEveryECGWithItsVoltagesAndReimportAddsNothing() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let second = Self.voltages(count: 1024, phase: 1)
        var zip = TestZipWriter()
        zip.add("apple_health_export/export.xml", Array(Self.exportXML.utf8))
        zip.add("apple_health_export/electrocardiograms/ecg_2024-03-01.csv", Array(Self.csv().utf8))
        zip.add(
            "apple_health_export/electrocardiograms/ecg_2024-03-01_1 Zoë.csv",
            Array(
                Self.csv(
                    recorded: "2024-03-01 21:02:03 -0500", classification: "Heart Rate Over 120",
                    symptoms: "\"Rapid, pounding, or fluttering heartbeat\"", voltages: second
                ).utf8), method: .stored)
        let path = directory.appendingPathComponent("export.zip").path
        try Data(zip.finished()).write(to: URL(fileURLWithPath: path))
        let store = InMemoryHealthStore(configuration: app)

        let report = try await HealthExportImport(path: path).run(into: store)
        #expect(report.imported["electrocardiogram"] == 2)
        #expect(report.imported["stepCount"] == 1)
        #expect(report.voltageMeasurements == 512 + 1024)
        #expect(report.skippedCount == 0)
        #expect(report.unmappedElements.keys.filter { $0.hasPrefix("ECG") }.isEmpty)

        let ecgs = try await store.samples(of: .electrocardiogram).compactMap { sample -> HealthElectrocardiogram? in
            if case .electrocardiogram(let ecg) = sample { return ecg }
            return nil
        }
        #expect(ecgs.count == 2)
        let first = try #require(ecgs.first)
        #expect(first.startDate == Date(timeIntervalSince1970: 1_709_280_880))
        #expect(first.endDate.timeIntervalSince(first.startDate) == 1)
        #expect(first.classification == .sinusRhythm)
        #expect(first.symptomsStatus == .notSet)
        #expect(first.samplingFrequency == HealthQuantity(unit: .hertz(), doubleValue: 512))
        #expect(first.numberOfVoltageMeasurements == 512)
        #expect(first.source == HealthSource.exported(name: "ECG"))
        #expect(first.metadata[.exportDevice] == .string("Watch6,7"))
        #expect(first.metadata[.exportSourceVersion] == .string("1.90"))
        #expect(first.metadata[.exportECGLead] == .string("Lead I"))
        #expect(first.metadata[.exportUTCOffset] == .string("+0100"))
        let measurements = try await store.voltageMeasurements(of: first)
        #expect(measurements.map(\.microvolts) == Self.microvolts(Self.voltages()))
        #expect(measurements[256].timeSinceSampleStart == 0.5)

        let last = try #require(ecgs.last)
        #expect(last.classification == .inconclusiveHighHeartRate)
        #expect(last.symptomsStatus == .present)
        #expect(last.metadata[.exportECGSymptoms] == .string("Rapid, pounding, or fluttering heartbeat"))
        #expect(try await store.voltageMeasurements(of: last).map(\.microvolts) == Self.microvolts(second))

        let again = try await HealthExportImport(path: path).run(into: store)
        #expect(again.importedCount == 0)
        #expect(again.alreadyInStore == 3)
        #expect(again.voltageMeasurements == 0)
        #expect(try await store.samples(of: .electrocardiogram).count == 2)
    }

    @Test func folderImportIntoTheDurableStoreKeepsVoltagesAcrossReopen() async throws {
        let root = try Self.folder(["ecg_2024-03-01_Łódź.csv": Self.csv()])
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data")
        let store = try FileHealthStore(directory: data, configuration: app)
        let report = try await HealthExportImport(path: root.path).run(into: store)
        #expect(report.imported["electrocardiogram"] == 1)
        store.close()

        let reopened = try FileHealthStore(directory: data, configuration: app)
        try await reopened.requestAuthorization(toShare: [], read: [.electrocardiogram])
        let ecg = try #require(try await reopened.samples(of: .electrocardiogram).first)
        guard case .electrocardiogram(let recording) = ecg else {
            Issue.record("not an ECG: \(ecg.type)")
            return
        }
        #expect(
            try await reopened.voltageMeasurements(of: recording).map(\.microvolts)
                == Self.microvolts(Self.voltages()))
        let again = try await HealthExportImport(path: root.path).run(into: reopened)
        #expect(again.importedCount == 0)
        #expect(again.alreadyInStore == 2)
        reopened.close()
    }

    /// One damaged CSV per skip reason, with the line the skip names.
    static let damaged: [(file: String, text: String, reason: HealthExportSkip.Reason, line: Int)] = [
        ("ecg_quote.csv", csv().replacingOccurrences(of: "\"Watch6,7\"", with: "\"Watch6,7"), .badHeader, 7),
        ("ecg_twice.csv", csv(extraHeader: "Lead,Lead II"), .badHeader, 14),
        ("ecg_number.csv", csv(voltages: ["1.5", "-2.25", "12.5µ", "3"]), .badNumber, 16),
        ("ecg_cut.csv", csv(voltages: []), .truncated, 13),
        ("ecg_nodate.csv", csv().replacingOccurrences(of: "Recorded Date,", with: "Recorded,"), .missingAttribute, 1),
        ("ecg_date.csv", csv(recorded: "01.03.2024 09:14"), .badDate, 3),
        ("ecg_rate.csv", csv(rate: "fast hertz"), .badNumber, 8),
        ("ecg_unit.csv", csv(unit: "mmHg"), .unknownUnit, 12),
        ("ecg_zero.csv", csv(rate: "0 hertz"), .invalidValue, 8),
    ]

    @Test func everyUnreadableCSVIsSkippedWithItsFileAndLine() async throws {
        var files = Dictionary(uniqueKeysWithValues: Self.damaged.map { ($0.file, $0.text) })
        files["ecg_good.csv"] = Self.csv()
        let root = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let skipFile = root.appendingPathComponent("skipped.tsv").path
        let store = InMemoryHealthStore(configuration: app)
        let report = try await HealthExportImport(
            path: root.path, options: HealthExportOptions(skipReportPath: skipFile)
        )
        .run(into: store)

        #expect(report.imported["electrocardiogram"] == 1)
        #expect(report.skippedCount == Self.damaged.count)
        for damaged in Self.damaged {
            let skip = report.skips.first { $0.element == "apple_health_export/electrocardiograms/" + damaged.file }
            #expect(skip?.reason == damaged.reason, "\(damaged.file)")
            #expect(skip?.line == damaged.line, "\(damaged.file)")
        }
        let listed = try String(contentsOfFile: skipFile, encoding: .utf8)
        #expect(listed.contains("14\tbadHeader\tapple_health_export/electrocardiograms/ecg_twice.csv"))
    }

    @Test func anECGFolderThatCannotBeListedStopsTheImportAfterCommittingTheRecords() async throws {
        let root = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: root) }
        let ecgs = root.appendingPathComponent("apple_health_export/electrocardiograms")
        try FileManager.default.removeItem(at: ecgs)
        try Data("not a folder".utf8).write(to: ecgs)
        let store = InMemoryHealthStore(configuration: app)

        let error = await #expect(throws: HealthExportError.self) {
            try await HealthExportImport(path: root.path).run(into: store)
        }

        guard case .io(let path, "list", let code) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(path == ecgs.path)
        #expect(code == ENOTDIR)
        try await store.requestAuthorization(toShare: [], read: [.stepCount])
        #expect(try await store.samples(of: .stepCount).count == 1)  // the XML's record was committed first
    }

    @Test func aStoreThatKeepsNoVoltagesGetsTheECGAloneAndTheReportCountsIt() async throws {
        let root = try Self.folder(["ecg_2024-03-01.csv": Self.csv()])
        defer { try? FileManager.default.removeItem(at: root) }
        let store = IngestObservingStore(InMemoryHealthStore(configuration: app))
        let report = try await HealthExportImport(path: root.path).run(into: store)
        #expect(report.imported["electrocardiogram"] == 1)
        #expect(report.electrocardiogramsWithoutVoltages == 1)
        #expect(report.voltageMeasurements == 0)
        try await store.requestAuthorization(toShare: [], read: [.electrocardiogram])
        guard case .electrocardiogram(let ecg)? = try await store.inner.samples(of: .electrocardiogram).first else {
            Issue.record("no ECG stored")
            return
        }
        #expect(try await store.inner.voltageMeasurements(of: ecg).isEmpty)
    }

    @Test func anExportWithoutAnECGFolderImportsWithoutOne() async throws {
        let root = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.removeItem(at: root.appendingPathComponent("apple_health_export/electrocardiograms"))
        let report = try await HealthExportImport(path: root.path).run(into: InMemoryHealthStore(configuration: app))
        #expect(report.imported["stepCount"] == 1)
        #expect(report.imported["electrocardiogram"] == nil)
    }

    @Test func aDamagedZipEntrySkipsItsECGAndKeepsTheRest() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = "-12.500\n"
        var zip = TestZipWriter()
        zip.add("apple_health_export/export.xml", Array(Self.exportXML.utf8))
        zip.add("apple_health_export/electrocardiograms/ecg_a.csv", Array(Self.csv().utf8), method: .stored)
        zip.add(
            "apple_health_export/electrocardiograms/ecg_b.csv",
            Array(Self.csv(recorded: "2024-03-02 08:00:00 +0100").utf8))
        var bytes = zip.finished()
        // Flip one digit inside the stored entry: its CRC-32 no longer matches.
        let range = try #require(bytes.firstRange(of: Array(marker.utf8)))
        bytes[range.lowerBound + 1] = UInt8(ascii: "7")
        let path = directory.appendingPathComponent("export.zip").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let report = try await HealthExportImport(path: path).run(into: InMemoryHealthStore(configuration: app))
        #expect(report.imported["electrocardiogram"] == 1)
        #expect(report.skipped == [.truncated: 1])
        #expect(report.skips.first?.element == "apple_health_export/electrocardiograms/ecg_a.csv")
    }

    @Test func readsDecimalCommasAverageHeartRateAndReportsUnknownWords() throws {
        let text = Self.csv(
            classification: "Sinusrhythmus", symptoms: "None", rate: "512,000 hertz",
            voltages: ["\"-265,868\"", "12,5", "3"], extraHeader: "Average Heart Rate,72 BPM"
        )
        .replacingOccurrences(of: "Lead,Lead I", with: "Lead,Lead I\nAufnahmeort,Zürich")
        let parsed = try ElectrocardiogramCSV.parse(Array(text.utf8))
        let ecg = parsed.recording.electrocardiogram
        #expect(parsed.recording.voltageMeasurements.map(\.microvolts) == [-265.868, 12.5, 3])
        #expect(ecg.samplingFrequency == HealthQuantity(unit: .hertz(), doubleValue: 512))
        #expect(
            ecg.averageHeartRate == HealthQuantity(unit: HealthUnit.count().unitDivided(by: .minute()), doubleValue: 72)
        )
        #expect(ecg.classification == .notSet)
        #expect(ecg.metadata[.exportECGClassification] == .string("Sinusrhythmus"))
        #expect(ecg.symptomsStatus == .none)
        #expect(parsed.unmapped == ["ECG header Aufnahmeort", "ECG classification Sinusrhythmus"])
    }

    @Test func identityFollowsTheRecordingNotThePersonsName() throws {
        let first = try ElectrocardiogramCSV.parse(Array(Self.csv().utf8)).recording.electrocardiogram.uuid
        let renamed = try ElectrocardiogramCSV.parse(
            Array(Self.csv().replacingOccurrences(of: "Zoë Müller-Łukasiewicz", with: "Zoë Müller").utf8))
        let otherVoltage = try ElectrocardiogramCSV.parse(
            Array(Self.csv(voltages: Self.voltages(phase: 0.5)).utf8))
        #expect(renamed.recording.electrocardiogram.uuid == first)
        #expect(otherVoltage.recording.electrocardiogram.uuid != first)
    }
}
