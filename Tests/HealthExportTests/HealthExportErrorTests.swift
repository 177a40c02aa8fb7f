import Foundation
import HealthFlow
import Testing

@testable import HealthExport

/// Three minutes: a full run on the shared two-core machine can keep a test waiting minutes for a thread.
@Suite(.timeLimit(.minutes(3)))
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
}
