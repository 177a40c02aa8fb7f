import Foundation
import Testing

@testable import HealthExport

/// Ten minutes, longer than a whole `swift test` here (5–6 min): a hang guard that cannot fire on a test that only
/// waits. Swift Testing counts the time a test waits for the cooperative pool (two threads on a two-core machine),
/// which long synchronous tests running children can hold for minutes.
@Suite(.timeLimit(.minutes(10)))
struct ExportXMLScannerTests {
    /// Every event as text, with its line, read with a buffer of `bufferSize` bytes.
    func events(of path: String, bufferSize: Int) throws -> [String] {
        let scanner = ExportXMLScanner(
            source: FileByteSource(file: try ReadOnlyFile(path: path)), bufferSize: bufferSize)
        var events: [String] = []
        while let event = try scanner.next() {
            switch event {
            case .start(let element, let selfClosing, let offset):
                let text = element.attributes.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
                events.append("<\(element.name) \(text) \(selfClosing) @\(offset):\(element.line)")
            case .end(let name): events.append("</\(name)>")
            }
        }
        return events
    }

    /// Values are read with their references decoded, as strings and as bytes, from each record's own tree: a
    /// record's values are not mixed with the one before, whatever their lengths.
    @Test func eachRecordsValuesAreReadDecodedFromItsOwnTree() throws {
        let device = "&lt;&lt;HKDevice: 0x283a8c9b0&gt;, name:Apple Watch, manufacturer:Apple Inc.&gt;"
        let text = """
            <HealthData>
            <Record device="\(device)" startDate="2024-03-01 10:00:00 -0800"><MetadataEntry key="k" value="v"/></Record>
            <Record device="\(device.replacingOccurrences(of: "Watch", with: "Clock"))" startDate="x"/>
            <Record type="t"/>
            </HealthData>
            """
        let scanner = ExportXMLScanner(source: MemoryByteSource(Array(text.utf8)), bufferSize: 64)
        var values: [String] = []
        while let event = try scanner.next() {
            guard case .start(let start, let selfClosing, _) = event, start.isNamed("Record") else { continue }
            let element = try scanner.element(start, selfClosing: selfClosing)
            let children = element.children.map { "\($0.name) \($0["key"] ?? "-")=\($0["value"] ?? "-")" }
            values.append(
                [
                    element["device"] ?? "-",
                    element.withValue("startDate") { String(decoding: $0, as: UTF8.self) } ?? "-",
                    element["type"] ?? "-", children.joined(separator: ";"),
                ].joined(separator: "|"))
        }
        #expect(
            values == [
                "<<HKDevice: 0x283a8c9b0>, name:Apple Watch, manufacturer:Apple Inc.>|2024-03-01 10:00:00 -0800|-|"
                    + "MetadataEntry k=v",
                "<<HKDevice: 0x283a8c9b0>, name:Apple Clock, manufacturer:Apple Inc.>|x|-|",
                "-|-|t|",
            ])
    }

    /// Elements nested far deeper than any export are read without recursion (a recursive reader would overflow
    /// the stack here), and their tree keeps every level.
    @Test func deeplyNestedElementsAreReadWithoutRecursion() throws {
        let depth = 200_000
        var text = "<HealthData><Record type=\"t\">"
        text += String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        text += "</Record></HealthData>"
        let scanner = ExportXMLScanner(source: MemoryByteSource(Array(text.utf8)))
        var levels = 0
        while let event = try scanner.next() {
            guard case .start(let start, let selfClosing, _) = event, start.isNamed("Record") else { continue }
            var element = try scanner.element(start, selfClosing: selfClosing)
            while let child = element.children.first {
                levels += 1
                element = child
            }
        }
        #expect(levels == depth)
    }

    /// A top-level element whose tree would take more than its memory limit — through many children, or through
    /// one tag of many attributes — is malformed XML at the tag that crossed it, not memory without bound.
    @Test(arguments: [false, true])
    func anElementPastTheTreesMemoryLimitIsMalformed(manyAttributes: Bool) throws {
        var text = "<HealthData><Record>"
        if manyAttributes {
            let count = ElementTree.memoryLimit / MemoryLayout<ElementTree.Attribute>.stride + 1
            text += "<a" + String(repeating: " a=\"\"", count: count) + "/>"
        } else {
            let count = ElementTree.memoryLimit / MemoryLayout<ElementTree.Node>.stride + 1
            text += String(repeating: "<a/>", count: count)
        }
        text += "</Record></HealthData>"
        let scanner = ExportXMLScanner(source: MemoryByteSource(Array(text.utf8)))
        #expect {
            while try scanner.next() != nil {}
        } throws: { error in
            guard case .malformedXML(_, _, let problem) = error as? HealthExportError else { return false }
            return problem.contains("more than \(ElementTree.memoryLimit >> 20) MiB")
        }
    }

    /// Newlines counted with `memchr` agree with a byte loop: every length and offset up to 40 bytes, over
    /// bytes where newlines sit beside their neighbours in value (0x09, 0x0B, 0x8A) and at a word's edges.
    @Test func newlinesAreCountedAsAByteLoopCountsThem() {
        let pattern: [UInt8] = [0x0A, 0x09, 0x0A, 0x0A, 0x0B, 0x8A, 0x0A, 0xFF, 0x00, 0x0A, 0x41, 0x0A, 0x7F, 0x0A]
        let bytes = (0..<48).map { pattern[($0 * 7) % pattern.count] }
        bytes.withUnsafeBytes { all in
            for first in 0..<8 {
                for last in first...40 {
                    let slice = UnsafeRawBufferPointer(rebasing: all[first..<last])
                    #expect(ExportXMLScanner.newlineCount(in: slice) == slice.filter { $0 == 0x0A }.count)
                }
            }
        }
    }

    /// A UTC offset is written back as the export wrote it.
    @Test func aUTCOffsetIsWrittenAsSignHoursMinutes() throws {
        for text in ["+0000", "-0700", "+0530", "-1200", "+1345", "+2359", "-0001"] {
            let date = try #require(ExportDate("2026-03-01 23:59:50 \(text)"))
            #expect(date.offsetText == text)
        }
    }

    @Test func aSmallBufferReadsTheSameEventsAsALargeOne() throws {
        let body =
            " <!-- a comment with a <Record> and \"quotes\" inside -->\n"
            + ExportFixtures.record(
                "StepCount", source: "Zoë &amp; Co", children: "  <MetadataEntry key=\"k\" value=\"a&#10;b\"/>\n")
            + ExportFixtures.bloodPressure + ExportFixtures.workout + ExportFixtures.activitySummary
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(ExportFixtures.export(body), in: directory)
        let large = try events(of: path, bufferSize: 1 << 20)
        #expect(try events(of: path, bufferSize: 64) == large)
        #expect(large.first?.hasPrefix("<HealthData locale=de_DE false") == true)
        #expect(large.contains { $0.hasPrefix("<MetadataEntry key=k,value=a\nb true") })
        #expect(large.last == "</HealthData>")
    }

    /// Every cut of an export, at every byte, ends in a typed error naming where the bytes ended (or, before
    /// the root element, saying there is none) — never a trap and never a silent success — read through a
    /// 64-byte buffer so cuts fall inside refills too.
    @Test func everyCutOfAnExportIsTruncatedAtItsLength() throws {
        let text = Array(ExportFixtures.export(ExportFixtures.bloodPressure + ExportFixtures.workout).utf8)
        let rootStart = try #require(text.indices.first { text[$0...].starts(with: Array("<HealthData".utf8)) })
        for length in 0..<(text.count - "</HealthData>\n".utf8.count + "</HealthData>".utf8.count) {
            let scanner = ExportXMLScanner(source: MemoryByteSource(Array(text[..<length])), bufferSize: 64)
            do {
                while try scanner.next() != nil {}
                Issue.record("a cut at \(length) of \(text.count) bytes read as a whole export")
            } catch .truncated(let offset, _) {
                #expect(offset == Int64(length))
            } catch .notXML(_, let problem) {
                #expect(length <= rootStart, "\(length): \(problem)")
            } catch {
                Issue.record("a cut at \(length) threw \(error)")
            }
        }
    }

    /// A processing instruction in the internal DTD ends at its first `?>`: quotes and brackets inside it mean
    /// nothing, while a quoted `]>`, a comment with `'` and an ENTITY value holding `]>` keep working beside it.
    @Test func aProcessingInstructionInTheDTDEndsAtItsFirstQuestionMarkBracket() throws {
        let record = " <Record type=\"t\" value=\"1\"/>\n"
        for instruction in ["<?pi-target ]> ?>", "<?pi-target don't ?>", "<?pi \"?>", "<?pi [ ?>", "<?pi-target ??>"] {
            let text = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE HealthData [
                \(instruction)
                <!-- Zoë's comment ]> -->
                <!ENTITY e "a ]> b">
                <!ATTLIST Record note CDATA 'x ]> y'>
                ]>
                <HealthData>
                \(record)</HealthData>

                """
            for bufferSize in [64, 1 << 20] {
                let scanner = ExportXMLScanner(source: MemoryByteSource(Array(text.utf8)), bufferSize: bufferSize)
                var names: [String] = []
                do {
                    while let event = try scanner.next() {
                        if case .start(let element, _, _) = event { names.append(element.name) }
                    }
                } catch {
                    Issue.record("\(instruction) with a \(bufferSize)-byte buffer: \(error)")
                }
                #expect(names == ["HealthData", "Record"], "\(instruction)")
            }
        }
    }

    /// The first value of an attribute of the only Record in `value`'s export, or the scanner's error.
    func recordValue(_ value: String) -> Result<String, HealthExportError> {
        let text = "<HealthData>\n <Record sourceName=\"\(value)\"/>\n</HealthData>\n"
        let scanner = ExportXMLScanner(source: MemoryByteSource(Array(text.utf8)))
        do throws(HealthExportError) {
            while let event = try scanner.next() {
                if case .start(let element, _, _) = event, element.isNamed("Record") {
                    return .success(element.attributes[0].value)
                }
            }
            return .failure(.notXML(offset: 0, problem: "no record"))
        } catch {
            return .failure(error)
        }
    }

    /// A numeric character reference is read whatever its number of leading zeros; its value, not its length,
    /// bounds it: past U+10FFFF, a surrogate or 0 is a typed error at the reference.
    @Test func aCharacterReferenceWithLeadingZerosIsDecodedAndOneOutOfRangeIsMalformed() throws {
        #expect(try recordValue("Zo&#0000000235;").get() == "Zoë")
        #expect(try recordValue("Zo&#x00000000000000000000eB; &#0000000000000000000000000128003;").get() == "Zoë 🐃")
        #expect(try recordValue("&#1114111;").get() == "\u{10FFFF}")
        let referenceOffset = Int64("<HealthData>\n <Record sourceName=\"".utf8.count)
        for bad in [
            "&#x110000;", "&#1114112;", "&#99999999999999999999999;", "&#xD800;", "&#57343;", "&#0;", "&#x0000;",
            "&#;", "&#x;", "&#12a;", "&#0000000235",
        ] {
            guard case .failure(.malformedXML(let offset, let line, _)) = recordValue(bad) else {
                Issue.record("\(bad) gave \(recordValue(bad))")
                continue
            }
            #expect(offset == referenceOffset && line == 2, "\(bad)")
        }
    }

    @Test func attributesInAnyOrderAndBothQuotesAreRead() throws {
        let text = ExportFixtures.header + " <Record value='7' type=\"t\"\n   unit = 'count' />\n</HealthData>"
        let directory = try ExportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try ExportFixtures.write(text, in: directory)
        let record = try events(of: path, bufferSize: 64).first { $0.hasPrefix("<Record") }
        #expect(record?.hasPrefix("<Record value=7,type=t,unit=count true") == true)
    }
}

/// export.xml's bytes from memory, for scanner tests.
final class MemoryByteSource: ExportByteSource {
    private let bytes: [UInt8]
    private(set) var consumedBytes: Int64 = 0
    var totalBytes: Int64 { Int64(bytes.count) }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(HealthExportError) -> Int {
        let count = min(buffer.count, bytes.count - Int(consumedBytes))
        bytes[Int(consumedBytes)..<(Int(consumedBytes) + count)].withUnsafeBytes {
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[...]))
        }
        consumedBytes += Int64(count)
        return count
    }
}
