import Foundation
import HealthFlow
import Testing

@testable import HealthExport

struct ContentIdentityTests {
    /// Digests from FIPS 180-4's examples and Python's hashlib: the lengths put the padding in the same block
    /// (0, 3, 55), force a second padding block (56), fill a block exactly (64), and span many blocks.
    @Test(arguments: [
        ("", 0, "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", 1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("a", 55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
        ("a", 64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
        ("a", 1_000_000, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
    ])
    func sha1MatchesReferenceDigestsAcrossBlockBoundaries(text: String, repeats: Int, expected: String) {
        let message = Array(String(repeating: text, count: repeats).utf8)
        let digest = message.withUnsafeBytes { SHA1.hash($0) }
        let hex = (0..<20).map { index in
            let byte = digest.byte(index)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
        #expect(hex == expected)
    }

    /// The processor's SHA instructions and the portable code give the same digest for every length around the
    /// block and padding boundaries and for long messages (on a processor without them both ways are the portable
    /// one, and the test says so).
    @Test func sha1WithTheProcessorsInstructionsMatchesThePortableCode() {
        var random = SeededRandomNumberGenerator(seed: 0x5A1)
        let lengths = Array(0...200) + [447, 448, 511, 512, 513, 4_096, 100_003]
        for length in lengths {
            let message = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &random) }
            let (hardware, portable) = message.withUnsafeBytes { bytes in
                (SHA1.hash(bytes, usingHardware: true), SHA1.hash(bytes, usingHardware: false))
            }
            #expect((0..<20).map(hardware.byte) == (0..<20).map(portable.byte), "\(length) bytes")
        }
        if !SHA1.hardwareIsAvailable {
            print("note: this processor has no SHA instructions; only the portable SHA-1 ran")
        }
    }

    /// A number is added as its decimal string is: identities made before and after stay the same.
    @Test func aNumberAddsTheBytesOfItsDecimalString() {
        var random = SystemRandomNumberGenerator()
        let numbers: [Int64] =
            [0, 7, -7, 10, -10, 1_700_000_000, -1_700_000_000, .max, .min, .max - 1, .min + 1]
            + (0..<200).map { _ in Int64.random(in: .min ... .max, using: &random) }
        for number in numbers {
            var asNumber = ContentIdentity()
            asNumber.add(number)
            asNumber.add("after")
            var asString = ContentIdentity()
            asString.add(String(number))
            asString.add("after")
            #expect(asNumber.uuid == asString.uuid, "\(number)")
        }
    }

    /// A heart-rate record with a non-ASCII source and two metadata entries out of key order.
    static let heartRate = """
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Zoë’s Watch" unit="count/min" \
        startDate="2024-03-01 10:00:00 +0100" endDate="2024-03-01 10:05:00 +0100" value="72.5">
          <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
          <MetadataEntry key="HKExternalUUID" value="ß-1"/>
         </Record>

        """

    /// The first record element of `body` written inside an export, as the scanner reads it.
    func record(_ body: String) throws -> ExportElement {
        let text = ExportFixtures.header + body + "</HealthData>\n"
        let scanner = ExportXMLScanner(source: MemoryByteSource(Array(text.utf8)), bufferSize: 64)
        while let event = try scanner.next() {
            if case .start(let start, let selfClosing, _) = event, start.isNamed("Record") {
                return try scanner.element(start, selfClosing: selfClosing)
            }
        }
        throw HealthExportError.notXML(offset: 0, problem: "no Record")
    }

    func uuid(_ body: String) throws -> UUID? {
        var mapper = ExportMapper()
        return try mapper.sample(fromRecord: try record(body))?.uuid
    }

    /// The identity stores already hold: RFC 9562's version 5 UUID of the namespace and the fields (element,
    /// type, source, start and end in whole seconds, sorted `key=value` metadata, unit, value as written), each
    /// followed by a zero byte — computed outside Swift with Python's `uuid.uuid5`.
    /// With both metadata entries, with the motion context alone, and with none.
    @Test(arguments: [
        ([], "d17ce3ae-4bce-5d50-a373-12b56335e52a"),
        (["HKExternalUUID"], "f5358464-76b4-5dca-bf94-dce26819845c"),
        (["HKExternalUUID", "HKMetadataKeyHeartRateMotionContext"], "eb0e998e-437e-5a65-91a0-44fecd86eb93"),
    ])
    func aRecordsIdentityIsTheNameBasedUUIDOfItsFields(withoutEntries keys: [String], expected: String) throws {
        let body = Self.heartRate.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in !keys.contains { line.contains("key=\"\($0)\"") } }
            .joined(separator: "\n")
        #expect(try uuid(body) == UUID(uuidString: expected))
    }

    /// Attribute order, metadata order, character references and the device (which is not part of the
    /// identity) leave the identity as it is; the value as written is part of it.
    @Test func identityIgnoresHowTheSameRecordIsWritten() throws {
        let reordered = """
             <Record value='72.5' endDate="2024-03-01 10:05:00 +0100" unit="count/min" \
            device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch&gt;" sourceName="Zo&#xEB;&#8217;s Watch" \
            startDate="2024-03-01 10:00:00 +0100" type="HKQuantityTypeIdentifierHeartRate">
              <MetadataEntry value="&#223;-1" key="HKExternalUUID"/>
              <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
             </Record>

            """
        let otherValueText = Self.heartRate.replacingOccurrences(of: "value=\"72.5\"", with: "value=\"72.50\"")
        let identity = try uuid(Self.heartRate)
        #expect(identity != nil)
        #expect(try uuid(reordered) == identity)
        #expect(try uuid(otherValueText) != identity)
    }

    @Test func aDecimalCommaIsABadNumberNotAnIdentity() throws {
        let body = """
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" \
            startDate="2024-03-01 10:00:00 +0100" endDate="2024-03-01 10:00:00 +0100" value="72,5"/>

            """
        let problem = #expect(throws: RecordProblem.self) { try uuid(body) }
        #expect(problem?.reason == .badNumber)
    }

    @Test func theDeviceIsDecodedFromItsNamedEntities() throws {
        let body = """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" \
            device="&lt;&lt;HKDevice&gt;, a &amp; b, &quot;c&quot;, &apos;d&apos;&gt;" \
            startDate="2024-03-01 10:00:00 +0100" endDate="2024-03-01 10:05:00 +0100" value="12"/>

            """
        #expect(try record(body)["device"] == "<<HKDevice>, a & b, \"c\", 'd'>")
    }
}
