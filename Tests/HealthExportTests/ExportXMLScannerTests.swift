import Foundation
import Testing

@testable import HealthExport

/// Three minutes: a full run on the shared two-core machine can keep a test waiting minutes for a thread.
@Suite(.timeLimit(.minutes(3)))
struct ExportXMLScannerTests {
    /// Every event as text, with its line, read with a buffer of `bufferSize` bytes.
    func events(of path: String, bufferSize: Int) throws -> [String] {
        let scanner = ExportXMLScanner(
            source: FileByteSource(file: try ReadOnlyFile(path: path)), bufferSize: bufferSize)
        var events: [String] = []
        while let event = try scanner.next() {
            switch event {
            case .start(let name, let attributes, let selfClosing, let offset, let line):
                let text = attributes.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
                events.append("<\(name) \(text) \(selfClosing) @\(offset):\(line)")
            case .end(let name): events.append("</\(name)>")
            }
        }
        return events
    }

    @Test func aSmallBufferReadsTheSameEventsAsALargeOne() throws {
        let body =
            " <!-- a comment with a <Record> and \"quotes\" inside -->\n"
            + ExportFixtures.record(
                "StepCount", source: "Zoë &amp; Co", children: "  <MetadataEntry key=\"k\" value=\"a&#10;b\"/>\n")
            + ExportFixtures.bloodPressure + ExportFixtures.workout + ExportFixtures.activitySummary
        let path = try ExportFixtures.write(ExportFixtures.export(body), in: try ExportFixtures.temporaryDirectory())
        let large = try events(of: path, bufferSize: 1 << 20)
        #expect(try events(of: path, bufferSize: 64) == large)
        #expect(large.first?.hasPrefix("<HealthData locale=de_DE false") == true)
        #expect(large.contains { $0.hasPrefix("<MetadataEntry key=k,value=a\nb true") })
        #expect(large.last == "</HealthData>")
    }

    @Test func attributesInAnyOrderAndBothQuotesAreRead() throws {
        let text = ExportFixtures.header + " <Record value='7' type=\"t\"\n   unit = 'count' />\n</HealthData>"
        let path = try ExportFixtures.write(text, in: try ExportFixtures.temporaryDirectory())
        let record = try events(of: path, bufferSize: 64).first { $0.hasPrefix("<Record") }
        #expect(record?.hasPrefix("<Record value=7,type=t,unit=count true") == true)
    }
}
