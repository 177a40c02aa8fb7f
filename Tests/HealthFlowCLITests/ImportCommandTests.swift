import Foundation
import HealthFlow
import Testing

/// `healthflow import`, run as a subprocess on an export the test writes.
@Suite struct ImportCommandTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
        <!ATTLIST HealthData locale CDATA #REQUIRED>
        ]>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-02 09:00:00 -0800"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" unit="count" startDate="2024-03-01 10:00:00 -0800" endDate="2024-03-01 10:05:00 -0800" value="120"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s iPhone" unit="count/min" startDate="2024-03-01 10:00:00 -0800" endDate="2024-03-01 10:00:00 -0800" value="71"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s iPhone" unit="kg" startDate="2024-03-01 10:00:00 -0800" endDate="2024-03-01 10:00:00 -0800" value="71"/>
        </HealthData>

        """

    /// A fresh folder for one test's export and store; the test removes it.
    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func importPrintsASummaryAndASecondImportAddsNothing() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("export.xml")
        try Data(Self.export.utf8).write(to: path)
        let data = folder.appendingPathComponent("data").path

        let first = try await HealthFlowCommandTests.healthflow("import", path.path, "--data", data)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("imported 2 samples"), "\(first.output)")
        #expect(first.output.contains("unitNotForType"), "\(first.output)")
        let skipped = try String(contentsOfFile: data + "/import-skipped.tsv", encoding: .utf8)
        #expect(skipped.split(separator: "\n").last?.hasPrefix("10\tunitNotForType") == true, "\(skipped)")

        let second = try await HealthFlowCommandTests.healthflow("import", path.path, "--data", data)
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.output.contains("imported 0 samples"), "\(second.output)")
        #expect(second.output.contains("already in the store (imported before): 2"), "\(second.output)")

        let demo = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(demo.status == 0, "\(demo.output)")
        #expect(!demo.output.contains("generate a year"), "the demo does not seed an imported store")
        #expect(
            demo.output.contains("an imported export: its last step or heart-rate record ends 2024-03-01"),
            "the demo looks at the export's own last days: \(demo.output)")
        #expect(demo.output.contains("average 71.0 bpm"), "the workflows find the imported heart rate")
        #expect(demo.output.contains("→ 120  (mean 120)"), "the last day's steps are the export's")
        #expect(demo.output.contains("skipped: the demo writes nothing into an imported export"))
        let heights = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(!heights.output.contains("saved 1.72 m"), "a second demo run still writes nothing")
    }

    /// Two step counts as large as a `Double` holds are valid samples; their daily sum is infinite, which the demo
    /// prints rather than trapping on the conversion to a whole number.
    @Test func theDemoPrintsStepTotalsNoIntegerHoldsInsteadOfCrashing() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("export.xml")
        let huge = Self.export.replacingOccurrences(of: "value=\"120\"/>", with: "value=\"1e308\"/>")
            .replacingOccurrences(
                of: " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Zoë’s iPhone\" unit=\"kg\"",
                with: """
                     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" unit="count" \
                    startDate="2024-03-01 11:00:00 -0800" endDate="2024-03-01 11:05:00 -0800" value="1e308"/>
                     <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s iPhone" unit="kg"
                    """)
        try Data(huge.utf8).write(to: path)
        let data = folder.appendingPathComponent("data").path
        let imported = try await HealthFlowCommandTests.healthflow("import", path.path, "--data", data)
        #expect(imported.output.contains("imported 3 samples"), "\(imported.output)")
        let demo = try await HealthFlowCommandTests.healthflow("demo", "--data", data)
        #expect(demo.status == 0, "\(demo.output)\n\(demo.errors)")
        #expect(demo.output.contains("→ inf  (mean "), "\(demo.output)")
    }

    /// A sync after re-importing a newer export of the same person sends only what the newer export added.
    @Test func syncAfterImportingANewerExportSendsOnlyTheNewSamples() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (older, newer) = (folder.appendingPathComponent("older.xml"), folder.appendingPathComponent("newer.xml"))
        try Data(Self.export.utf8).write(to: older)
        let added = """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" unit="count" \
            startDate="2024-03-02 08:00:00 -0800" endDate="2024-03-02 08:05:00 -0800" value="64"/>
            </HealthData>
            """
        try Data(Self.export.replacingOccurrences(of: "</HealthData>", with: added).utf8).write(to: newer)
        let data = folder.appendingPathComponent("data").path
        let outbox = folder.appendingPathComponent("outbox").path

        #expect(try await HealthFlowCommandTests.healthflow("import", older.path, "--data", data).status == 0)
        let first = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("sent 2 samples and 0 deletions"), "\(first.output)")

        let reimport = try await HealthFlowCommandTests.healthflow("import", newer.path, "--data", data)
        #expect(reimport.output.contains("imported 1 samples"), "\(reimport.output)")
        let second = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data)
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.output.contains("sent 1 samples and 0 deletions"), "\(second.output)")
        let third = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data)
        #expect(third.output.contains("nothing to send"), "\(third.output)")
    }

    /// The store's files (name and size), without the import's skip report, which each import writes again.
    static func storeFiles(_ data: String) throws -> [String: Int] {
        var files: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: data) where name != "import-skipped.tsv" {
            files[name] = try FileManager.default.attributesOfItem(atPath: data + "/" + name)[.size] as? Int
        }
        return files
    }

    /// The first import settles what it added — a snapshot of a journal store, a checkpoint of a disk-backed one
    /// (its memtables in segments, a new empty log) — and an import that adds nothing (the same export again)
    /// leaves every file of the store as it was.
    @Test(arguments: [DurableStoreFormat.journal, .segments])
    func anImportSettlesWhatItAddedAndOneThatAddsNothingChangesNoFile(format: DurableStoreFormat) async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("export.xml")
        try Data(Self.export.utf8).write(to: path)
        let data = folder.appendingPathComponent("data")
        if format == .journal { try StoreFolders.makeJournalStore(at: data) }

        let first = try await HealthFlowCommandTests.healthflow("import", path.path, "--data", data.path)
        #expect(first.status == 0, "\(first.errors)")
        let afterFirst = try Self.storeFiles(data.path)
        #expect(try DurableStoreFormat.of(directoryPath: FileSystemPath(data)) == format)
        switch format {
        case .journal:
            #expect(afterFirst.keys.filter { $0.hasPrefix("snapshot-") }.count == 1, "\(afterFirst)")
        case .segments:
            #expect(afterFirst.keys.contains { $0.hasPrefix("segment-stepCount-") }, "\(afterFirst)")
            #expect(afterFirst.keys.filter { $0.hasPrefix("segment-log-") } == ["segment-log-0000000000000002.hfj"])
        }

        let second = try await HealthFlowCommandTests.healthflow("import", path.path, "--data", data.path)
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.output.contains("imported 0 samples"), "\(second.output)")
        #expect(try Self.storeFiles(data.path) == afterFirst)
    }

    /// The settling step after the import cannot be written (a directory holds the temporary name of the
    /// snapshot, or of the disk-backed store's next log): the import still succeeds, says so, and the next run
    /// finds every sample.
    @Test(arguments: [
        (DurableStoreFormat.journal, ".healthflow-snapshot-0000000000000001.hfs.tmp"),
        (.segments, ".healthflow-segment-log-0000000000000002.hfj.tmp"),
    ])
    func aFailedSettlingAfterTheImportIsReportedAndLosesNothing(format: DurableStoreFormat, blocked: String)
        async throws
    {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("export.xml")
        try Data(Self.export.utf8).write(to: path)
        let data = folder.appendingPathComponent("data")
        if format == .journal { try StoreFolders.makeJournalStore(at: data) }
        let blocker = data.appendingPathComponent(blocked)
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)

        let first = try await HealthFlowCommandTests.healthflow("import", path.path, "--data", data.path)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.contains("imported 2 samples"), "\(first.output)")
        let (settling, log) = format == .journal ? ("snapshot", "the journal") : ("checkpoint", "the log")
        #expect(
            first.output.contains("warning: the store's \(settling) after the import failed"), "\(first.output)")
        #expect(first.output.contains("\(log) keeps every sample"), "\(first.output)")

        try FileManager.default.removeItem(at: blocker)
        let second = try await HealthFlowCommandTests.healthflow("import", path.path, "--data", data.path)
        #expect(second.status == 0, "\(second.errors)")
        #expect(second.output.contains("already in the store (imported before): 2"), "\(second.output)")
        #expect(!second.output.contains("warning"), "\(second.output)")
    }

    @Test func importSummaryCountsECGVoltagesAndNamesAnUnreadableCSV() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ecgs = folder.appendingPathComponent("electrocardiograms")
        try FileManager.default.createDirectory(at: ecgs, withIntermediateDirectories: true)
        try Data(Self.export.utf8).write(to: folder.appendingPathComponent("export.xml"))
        let header = [
            "Name,Zoë", "Recorded Date,2024-03-01 09:14:40 -0800", "Classification,Sinus Rhythm", "Symptoms,",
            "Device,\"Watch6,7\"", "Sample Rate,512 hertz", "", "Lead,Lead I", "Unit,µV", "",
        ]
        let voltages = (0..<512).map { String(format: "%.3f", Double($0 % 40) * 3.5 - 60) }
        try Data((header + voltages).joined(separator: "\n").utf8).write(
            to: ecgs.appendingPathComponent("ecg_2024-03-01.csv"))
        try Data(header.joined(separator: "\n").utf8).write(to: ecgs.appendingPathComponent("ecg_2024-03-01_1.csv"))
        let data = folder.appendingPathComponent("data").path

        let run = try await HealthFlowCommandTests.healthflow("import", folder.path, "--data", data)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("electrocardiogram"), "\(run.output)")
        #expect(run.output.contains("ECG voltage measurements stored with their ECGs: 512"), "\(run.output)")
        #expect(run.output.contains("truncated"), "\(run.output)")
        let skipped = try String(contentsOfFile: data + "/import-skipped.tsv", encoding: .utf8)
        #expect(
            skipped.split(separator: "\n").last?.hasPrefix("9\ttruncated\telectrocardiograms/ecg_2024-03-01_1.csv")
                == true, "\(skipped)")
    }

    @Test func aTruncatedExportFailsNamingTheByteOffset() async throws {
        let folder = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("export.xml")
        let cut = Array(Self.export.utf8.dropLast(40))
        try Data(cut).write(to: path)
        let run = try await HealthFlowCommandTests.healthflow(
            "import", path.path, "--data", folder.appendingPathComponent("data").path)
        #expect(run.status == 1)
        #expect(run.errors.contains("export.xml ends early at byte \(cut.count)"), "\(run.errors)")
    }
}
