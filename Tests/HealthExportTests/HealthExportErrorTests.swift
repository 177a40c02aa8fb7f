import Foundation
import HealthFlow
import Testing

@testable import HealthExport

/// Ten minutes, longer than a whole `swift test` here (5–6 min): a hang guard that cannot fire on a test that only
/// waits. Swift Testing counts the time a test waits for the cooperative pool (two threads on a two-core machine),
/// which long synchronous tests running children can hold for minutes.
@Suite(.timeLimit(.minutes(10)))
struct HealthExportErrorTests {
    let app = HealthAppConfiguration(
        bundleIdentifier: "com.example.importer", name: "Importer", healthShareUsageDescription: "Reads.",
        healthUpdateUsageDescription: "Writes.")

    func importing(_ text: String) async throws -> (InMemoryHealthStore, Result<HealthExportReport, any Error>) {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(text, in: directory)
        let store = InMemoryHealthStore(configuration: app)
        do {
            return (store, .success(try await HealthExportImport(path: path).run(into: store)))
        } catch {
            return (store, .failure(error))
        }
    }

    func importing(zip bytes: [UInt8]) async throws -> (any Error)? {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("export.zip")
        try Data(bytes).write(to: url)
        do {
            _ = try await HealthExportImport(path: url.path).run(into: InMemoryHealthStore(configuration: app))
            return nil
        } catch {
            return error
        }
    }

    @Test func aFileCutInsideATagStopsAtItsLengthKeepingTheRecordsBefore() async throws {
        let whole = ExportFixtures.export(
            ExportFixtures.record("StepCount") + ExportFixtures.record("HeartRate", unit: "count/min"))
        let cut = String(whole.utf8.prefix(whole.utf8.count - 60))!
        let (store, result) = try await importing(cut)
        let lines = cut.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(throws: HealthExportError.truncated(offset: Int64(cut.utf8.count), line: lines)) { try result.get() }
        #expect(try await store.samples(of: .stepCount).count == 1)
    }

    @Test func aFileEndingBeforeTheRootClosesIsTruncated() async throws {
        let text = ExportFixtures.header + ExportFixtures.record("StepCount")
        let (_, result) = try await importing(text)
        #expect(throws: HealthExportError.self) { try result.get() }
        guard case .failure(HealthExportError.truncated(let offset, _)) = result else {
            Issue.record("expected truncated, got \(result)")
            return
        }
        #expect(offset == Int64(text.utf8.count))
    }

    @Test func aFileCutInsideTheDTDIsTruncated() async throws {
        let text = String(ExportFixtures.header.prefix(200))
        let (_, result) = try await importing(text)
        #expect(throws: HealthExportError.truncated(offset: Int64(text.utf8.count), line: 5)) { try result.get() }
    }

    @Test func textThatIsNotXMLIsRefusedAtItsFirstByte() async throws {
        let (_, json) = try await importing("{\"records\": []}")
        #expect(throws: HealthExportError.notXML(offset: 0, problem: "text where XML markup should be")) {
            try json.get()
        }
        let (_, other) = try await importing("<?xml version=\"1.0\"?>\n<html><body/></html>")
        #expect(throws: HealthExportError.notXML(offset: 22, problem: "the root element is <html>, not <HealthData>")) {
            try other.get()
        }
    }

    @Test func aMismatchedEndTagIsMalformedAtItsOffsetAndLine() async throws {
        let body = " <Record type=\"HKQuantityTypeIdentifierStepCount\">\n </Workout>\n"
        let text = ExportFixtures.export(body)
        let (_, result) = try await importing(text)
        let offset = Int64(text.utf8.count - " </Workout>\n</HealthData>\n".utf8.count + 1)
        let line = ExportFixtures.header.split(separator: "\n", omittingEmptySubsequences: false).count + 1
        #expect(
            throws: HealthExportError.malformedXML(offset: offset, line: line, problem: "</Workout> closes <Record>")
        ) {
            try result.get()
        }
    }

    @Test func anUnknownEntityIsMalformed() async throws {
        let (_, result) = try await importing(
            ExportFixtures.export(ExportFixtures.record("StepCount", source: "a &nbsp; b")))
        guard case .failure(HealthExportError.malformedXML(_, _, let problem)) = result else {
            Issue.record("expected malformedXML, got \(result)")
            return
        }
        #expect(problem == "unknown reference &nbsp;")
    }

    @Test func aCorruptedStoredEntryFailsItsCRCNamingTheEntryOffset() async throws {
        var zip = TestZipWriter()
        zip.add("apple_health_export/export.xml", Array(ExportFixtures.export("").utf8), method: .stored)
        var bytes = zip.finished()
        let dataStart = 30 + "apple_health_export/export.xml".utf8.count
        bytes[dataStart + 100] ^= 0x20
        let error = try await importing(zip: bytes)
        guard case HealthExportError.damagedZip(let offset, let problem)? = error else {
            Issue.record("expected damagedZip, got \(String(describing: error))")
            return
        }
        #expect(offset == Int64(dataStart))
        #expect(problem.contains("CRC-32"))
    }

    @Test func damagedDeflateDataIsADamagedZip() async throws {
        var zip = TestZipWriter()
        zip.add("apple_health_export/export.xml", Array(ExportFixtures.export(ExportFixtures.record("StepCount")).utf8))
        var bytes = zip.finished()
        let dataStart = 30 + "apple_health_export/export.xml".utf8.count
        for index in dataStart..<(dataStart + 40) { bytes[index] = 0xFF }
        let error = try await importing(zip: bytes)
        #expect(error.map { if case HealthExportError.damagedZip = $0 { true } else { false } } == true)
    }

    @Test func aZipCutShortHasNoCentralDirectory() async throws {
        var zip = TestZipWriter()
        zip.add("apple_health_export/export.xml", Array(ExportFixtures.export("").utf8))
        let bytes = Array(zip.finished().dropLast(30))
        let error = try await importing(zip: bytes)
        #expect(
            error as? HealthExportError
                == .damagedZip(offset: Int64(bytes.count), problem: "no end of central directory record"))
    }

    @Test func anEntrySizeRunningPastTheFileIsADamagedZipNamingItsDirectoryRecord() async throws {
        var zip = TestZipWriter()
        zip.add("apple_health_export/export.xml", Array(ExportFixtures.export("").utf8), method: .stored)
        let directoryOffset = zip.data.count
        var bytes = zip.finished()
        bytes.replaceSubrange((directoryOffset + 20)..<(directoryOffset + 24), with: [0xF0, 0xFF, 0xFF, 0x7F])
        let error = try await importing(zip: bytes)
        #expect(
            error as? HealthExportError
                == .damagedZip(
                    offset: Int64(directoryOffset),
                    problem: "apple_health_export/export.xml has sizes or an offset outside the file"))
    }

    @Test func anUnsupportedCompressionMethodIsNamed() async throws {
        var zip = TestZipWriter()
        zip.add("apple_health_export/export.xml", Array(ExportFixtures.export("").utf8), method: .other(12))
        let error = try await importing(zip: zip.finished())
        #expect(
            error as? HealthExportError == .unsupportedCompression(entry: "apple_health_export/export.xml", method: 12))
    }

    @Test func aZipOrFolderWithoutExportXMLIsRefused() async throws {
        var zip = TestZipWriter()
        zip.add("apple_health_export/export_cda.xml", Array("<ClinicalDocument/>".utf8))
        let error = try await importing(zip: zip.finished())
        #expect(throws: HealthExportError.self) { if let error { throw error } }
        guard case HealthExportError.missingExportXML? = error else {
            Issue.record("expected missingExportXML, got \(String(describing: error))")
            return
        }
        let empty = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        await #expect(throws: HealthExportError.missingExportXML(path: empty.path)) {
            try await HealthExportImport(path: empty.path).run(into: InMemoryHealthStore(configuration: app))
        }
        let missing = empty.appendingPathComponent("nothing.zip").path
        await #expect(throws: HealthExportError.notFound(path: missing)) {
            try await HealthExportImport(path: missing).run(into: InMemoryHealthStore(configuration: app))
        }
    }

    /// The UUIDs a store holds of each type an export with blood pressure and nutrition writes.
    func contents(of store: InMemoryHealthStore) async throws -> [HealthObjectType: [UUID]] {
        var contents: [HealthObjectType: [UUID]] = [:]
        for type in [
            HealthObjectType.stepCount, .heartRate, .bloodPressureSystolic, .bloodPressureDiastolic, .dietaryWater,
            .bloodPressure,
        ] {
            contents[type] = try await store.samples(of: type).map(\.uuid).sorted { $0.uuidString < $1.uuidString }
        }
        return contents
    }

    /// A file cut short after blood-pressure and nutrition records, before the correlations that may hold them:
    /// those held records are not written (one stored alone would keep its correlation out later) and the
    /// stopped import's report counts them; the run on the complete file then leaves exactly what a clean
    /// import of it does, each member stored once.
    @Test func heldMembersReadBeforeATruncationAreCountedNotWrittenAndTheRerunMatchesACleanImport() async throws {
        let water = ExportFixtures.record("DietaryWater", unit: "mL", value: "250")
        let heartRate = ExportFixtures.record("HeartRate", unit: "count/min", value: "64")
        let before =
            ExportFixtures.header + ExportFixtures.record("StepCount") + ExportFixtures.bloodPressureMembers
            + water
        let whole = ExportFixtures.export(
            String(before.dropFirst(ExportFixtures.header.count)) + heartRate + ExportFixtures.bloodPressure)
        let cut = before + String(heartRate.prefix(40))
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = InMemoryHealthStore(configuration: app)

        let cutPath = try ExportFixtures.write(cut, named: "cut.xml", in: directory)
        let stopped = HealthExportImport(path: cutPath, options: HealthExportOptions(batchSize: 2))
        await #expect(throws: HealthExportError.self) { try await stopped.run(into: store) }
        let atStop = try #require(stopped.stoppedReport)
        #expect(atStop.heldMembersNotWritten == 3)
        #expect(atStop.imported == ["stepCount": 1])
        #expect(try await store.samples(of: .bloodPressureSystolic).isEmpty)
        #expect(try await store.samples(of: .dietaryWater).isEmpty)

        let wholePath = try ExportFixtures.write(whole, in: directory)
        let rerun = try await HealthExportImport(path: wholePath).run(into: store)
        #expect(rerun.imported == ["heartRate": 1, "dietaryWater": 1, "bloodPressure": 1])
        #expect(rerun.alreadyInStore == 1 && rerun.correlationMembersMerged == 2 && rerun.heldMembersNotWritten == 0)
        let clean = InMemoryHealthStore(configuration: app)
        _ = try await HealthExportImport(path: wholePath).run(into: clean)
        let expected = try await contents(of: clean)
        #expect(expected[.bloodPressureSystolic]?.count == 1 && expected[.bloodPressure]?.count == 1)
        #expect(try await contents(of: store) == expected)
    }

    /// The error of importing a zip with `entries` (each holding an export), and the zip's path.
    func importing(zipWith entries: [String]) async throws -> (error: (any Error)?, path: String) {
        var zip = TestZipWriter()
        for entry in entries { zip.add(entry, Array(ExportFixtures.export(ExportFixtures.record("StepCount")).utf8)) }
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("export.zip")
        try Data(zip.finished()).write(to: url)
        do {
            _ = try await HealthExportImport(path: url.path).run(into: InMemoryHealthStore(configuration: app))
            return (nil, url.path)
        } catch {
            return (error, url.path)
        }
    }

    /// A zip with more than one export.xml — one name twice, one in the export folder and one at the root, or
    /// two folders — is refused naming every candidate; a zip with one export.xml beside other files is read.
    @Test func aZipWithTwoExportXMLEntriesIsRefusedNamingBoth() async throws {
        for entries in [
            ["apple_health_export/export.xml", "apple_health_export/export.xml"],
            ["apple_health_export/export.xml", "export.xml"],
            ["Zoë/apple_health_export/export.xml", "Max/apple_health_export/export.xml"],
        ] {
            let (error, path) = try await importing(zipWith: entries)
            #expect(error as? HealthExportError == .ambiguousExportXML(path: path, entries: entries), "\(entries)")
        }
        let (error, _) = try await importing(
            zipWith: ["apple_health_export/export.xml", "apple_health_export/export_cda.xml"])
        #expect(error == nil)
    }

    /// A folder holding export.xml both itself and in its `apple_health_export/` is refused naming both (the export,
    /// its ECGs and its routes would otherwise come from whichever each reader looked at first); either alone is read.
    @Test func aFolderWithExportXMLBothAtItsTopAndInItsExportFolderIsRefusedNamingBoth() async throws {
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = Data(ExportFixtures.export(ExportFixtures.record("StepCount")).utf8)
        let nested = directory.appendingPathComponent("apple_health_export")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try export.write(to: nested.appendingPathComponent("export.xml"))
        let onlyNested = try await HealthExportImport(path: directory.path).run(
            into: InMemoryHealthStore(configuration: app))
        #expect(onlyNested.importedCount == 1)

        try export.write(to: directory.appendingPathComponent("export.xml"))
        await #expect(
            throws: HealthExportError.ambiguousExportXML(
                path: directory.path, entries: ["export.xml", "apple_health_export/export.xml"])
        ) {
            _ = try await HealthExportImport(path: directory.path).run(into: InMemoryHealthStore(configuration: app))
        }

        try FileManager.default.removeItem(at: nested)
        let onlyTop = try await HealthExportImport(path: directory.path).run(
            into: InMemoryHealthStore(configuration: app))
        #expect(onlyTop.importedCount == 1)
    }
}
