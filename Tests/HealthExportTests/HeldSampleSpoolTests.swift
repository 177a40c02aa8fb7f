import Foundation
import HealthFlow
import Testing

@testable import HealthExport

/// The importer's spool of held correlation-member records: what is appended is read back equal and in order,
/// over several chunks; damage to the file is a typed error, never a wrong or missing sample.
struct HeldSampleSpoolTests {
    /// `count` nutrition and blood-pressure samples as the importer makes them: two sources (one non-ASCII),
    /// import metadata on each, a date in metadata on some, distinct values and dates.
    static func heldSamples(_ count: Int) throws -> [HealthSample] {
        let phone = HealthSource(bundleIdentifier: "com.example.food", name: "Zoë’s iPhone")
        let cuff = HealthSource(bundleIdentifier: "com.example.cuff", name: "Cuff")
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
        return try (0..<count).map { index in
            let at = start.addingTimeInterval(Double(index) * 61)
            var metadata: [MetadataKey: MetadataValue] = [
                "HealthExportSourceVersion": .string("17.\(index % 3)"), "HKWasUserEntered": 1,
            ]
            if index % 5 == 0 { metadata["HealthExportCreationDate"] = .date(at.addingTimeInterval(0.5)) }
            let sample =
                index % 2 == 0
                ? try HealthQuantitySample(
                    type: .dietaryProtein, quantity: HealthQuantity(unit: .gram(), doubleValue: Double(index) / 8),
                    start: at, end: at.addingTimeInterval(60), source: phone, metadata: metadata)
                : try HealthQuantitySample(
                    type: .bloodPressureSystolic,
                    quantity: HealthQuantity(unit: .millimeterOfMercury(), doubleValue: 100 + Double(index % 40)),
                    start: at, end: at, source: cuff, metadata: metadata)
            return .quantity(sample)
        }
    }

    static func readBack(_ spool: HeldSampleSpool) throws -> [HealthSample] {
        var read: [HealthSample] = []
        try spool.forEach { read.append($0) }
        return read
    }

    @Test func samplesComeBackEqualAndInOrderAcrossChunks() throws {
        let samples = try Self.heldSamples(2 * HeldSampleSpool.chunkSamples + 17)
        let spool = try HeldSampleSpool()
        for sample in samples { try spool.append(sample) }
        #expect(spool.count == samples.count)
        #expect(try Self.readBack(spool) == samples)
        // Read again (the end's correlation check reads the spool once more when an import stops).
        #expect(try Self.readBack(spool) == samples)
    }

    @Test func anEmptySpoolReadsNothing() throws {
        #expect(try Self.readBack(try HeldSampleSpool()).isEmpty)
    }

    /// The file is private and has no name from the start: a spool that is never released (its process killed
    /// mid-import) leaves nothing in the temporary folder.
    @Test func theFileIsPrivateAndUnlinkedAsSoonAsItIsOpened() throws {
        let spool = try HeldSampleSpool()
        #expect(!FileManager.default.fileExists(atPath: spool.path))
        try spool.append(try Self.heldSamples(1)[0])
        var status = stat()
        #expect(fstat(spool.handle.fileDescriptor, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(status.st_nlink == 0)
        #expect(try Self.readBack(spool).count == 1)
    }

    enum Damage: CaseIterable {
        case flippedPayloadByte, flippedLength, lengthOfGigabytes, cutInsideAChunk
    }

    /// Damage anywhere in a written chunk (its payload, its header's length — also one naming gigabytes, read no
    /// further than the file —, the file cut short) stops the read back with `EIO` naming the spool's file;
    /// nothing decoded from the damaged chunk reaches the caller.
    @Test(arguments: Damage.allCases)
    func damageIsAnIOErrorNotAWrongSample(_ damage: Damage) throws {
        let samples = try Self.heldSamples(HeldSampleSpool.chunkSamples + 10)
        let spool = try HeldSampleSpool()
        for sample in samples { try spool.append(sample) }
        // Writes the partial chunk too, then damages the second chunk.
        _ = try Self.readBack(spool)
        try spool.handle.seek(toOffset: 0)
        var bytes = [UInt8](try spool.handle.readToEnd() ?? Data())
        let first = SampleChunk.headerSize + SampleChunk.payloadLength(header: Array(bytes[0..<SampleChunk.headerSize]))
        switch damage {
        case .flippedPayloadByte: bytes[first + SampleChunk.headerSize + 20] ^= 0x10
        case .flippedLength: bytes[first] ^= 0x01
        case .lengthOfGigabytes: bytes[first + 3] = 0xFF
        case .cutInsideAChunk: bytes.removeLast(5)
        }
        try spool.handle.truncate(atOffset: 0)
        try spool.handle.write(contentsOf: bytes)
        var read: [HealthSample] = []
        #expect {
            try spool.forEach { read.append($0) }
        } throws: { error in
            guard case .io(let path, _, let code) = error as? HealthExportError else { return false }
            return path == spool.path && code == EIO
        }
        #expect(read == Array(samples.prefix(HeldSampleSpool.chunkSamples)))
    }
}
