/// A zip file's table of contents, read from its central directory (ZIP64 included): entries are found by name
/// and read one at a time with ``ZipEntrySource``, never the whole archive in memory.
final class ZipArchive {
    /// One file in the archive, as the central directory describes it.
    struct Entry: Sendable {
        let name: String
        let method: Int
        let crc32: UInt32
        let compressedSize: Int64
        let uncompressedSize: Int64
        /// Where the entry's local header starts.
        let localHeaderOffset: Int64
        /// Where this entry's record in the central directory starts (for error reports).
        let directoryOffset: Int64
    }

    let file: ReadOnlyFile
    let entries: [Entry]

    private static let endOfDirectorySignature: UInt32 = 0x0605_4b50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    private static let zip64EndSignature: UInt32 = 0x0606_4b50
    private static let directorySignature: UInt32 = 0x0201_4b50
    static let localHeaderSignature: UInt32 = 0x0403_4b50

    /// Whether the file starts like a zip (a local header or an empty archive's end record).
    static func looksLikeZip(_ file: ReadOnlyFile) throws(HealthExportError) -> Bool {
        guard let head = try file.bytes(at: 0, count: 4) else { return false }
        let signature = head.littleEndian32(at: 0)
        return signature == localHeaderSignature || signature == endOfDirectorySignature
    }

    init(file: ReadOnlyFile) throws(HealthExportError) {
        self.file = file
        let (count, directoryOffset, directorySize) = try Self.locateDirectory(in: file)
        guard count >= 0, directoryOffset >= 0, directorySize >= 0, directoryOffset + directorySize <= file.size,
            directorySize <= Int64(Int32.max)
        else {
            throw .damagedZip(offset: directoryOffset, problem: "the central directory lies outside the file")
        }
        guard let directory = try file.bytes(at: directoryOffset, count: Int(directorySize)) else {
            throw .damagedZip(offset: directoryOffset, problem: "the central directory is cut short")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(Int(min(count, 1 << 16)))
        var position = 0
        for _ in 0..<count {
            let at = directoryOffset + Int64(position)
            guard position + 46 <= directory.count, directory.littleEndian32(at: position) == Self.directorySignature
            else { throw .damagedZip(offset: at, problem: "expected a central directory record") }
            let nameLength = Int(directory.littleEndian16(at: position + 28))
            let extraLength = Int(directory.littleEndian16(at: position + 30))
            let commentLength = Int(directory.littleEndian16(at: position + 32))
            let end = position + 46 + nameLength + extraLength + commentLength
            guard end <= directory.count else {
                throw .damagedZip(offset: at, problem: "a central directory record runs past the directory")
            }
            let name = String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
            var uncompressed = Int64(directory.littleEndian32(at: position + 24))
            var compressed = Int64(directory.littleEndian32(at: position + 20))
            var local = Int64(directory.littleEndian32(at: position + 42))
            try Self.applyZip64(
                directory[(position + 46 + nameLength)..<(position + 46 + nameLength + extraLength)],
                uncompressed: &uncompressed, compressed: &compressed, local: &local, recordOffset: at)
            guard uncompressed >= 0, compressed >= 0, local >= 0, local + compressed <= file.size else {
                throw .damagedZip(offset: at, problem: "\(name) has sizes or an offset outside the file")
            }
            entries.append(
                Entry(
                    name: name, method: Int(directory.littleEndian16(at: position + 10)),
                    crc32: directory.littleEndian32(at: position + 16), compressedSize: compressed,
                    uncompressedSize: uncompressed, localHeaderOffset: local, directoryOffset: at))
            position = end
        }
        self.entries = entries
    }

    /// The entries named `name` in any folder (`export.xml` lies in `apple_health_export/`, or under a localized
    /// folder name), in the zip's order: the caller decides what more than one means — none is preferred.
    func entries(named name: String) -> [Entry] {
        entries.filter { $0.name == name || $0.name.hasSuffix("/" + name) }
    }

    /// The number of entries and the central directory's offset and size, from the end record (and the ZIP64
    /// end record when the classic one says to look there).
    private static func locateDirectory(
        in file: ReadOnlyFile
    ) throws(HealthExportError) -> (count: Int64, offset: Int64, size: Int64) {
        let tailLength = Int(min(file.size, 22 + 65_535))
        let tailStart = file.size - Int64(tailLength)
        guard tailLength >= 22, let tail = try file.bytes(at: tailStart, count: tailLength) else {
            throw .damagedZip(offset: file.size, problem: "too short to be a zip")
        }
        var candidate = tailLength - 22
        while candidate >= 0, tail.littleEndian32(at: candidate) != endOfDirectorySignature { candidate -= 1 }
        guard candidate >= 0 else {
            throw .damagedZip(offset: file.size, problem: "no end of central directory record")
        }
        var count = Int64(tail.littleEndian16(at: candidate + 10))
        var size = Int64(tail.littleEndian32(at: candidate + 12))
        var offset = Int64(tail.littleEndian32(at: candidate + 16))
        let endOffset = tailStart + Int64(candidate)
        let needsZip64 = count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF
        if endOffset >= 20, let locator = try file.bytes(at: endOffset - 20, count: 20),
            locator.littleEndian32(at: 0) == zip64LocatorSignature
        {
            let zip64Offset = Int64(bitPattern: locator.littleEndian64(at: 8))
            guard let record = try file.bytes(at: zip64Offset, count: 56),
                record.littleEndian32(at: 0) == zip64EndSignature
            else { throw .damagedZip(offset: zip64Offset, problem: "expected the ZIP64 end of central directory") }
            count = Int64(bitPattern: record.littleEndian64(at: 32))
            size = Int64(bitPattern: record.littleEndian64(at: 40))
            offset = Int64(bitPattern: record.littleEndian64(at: 48))
        } else if needsZip64 {
            throw .damagedZip(offset: endOffset, problem: "the end record points to a missing ZIP64 record")
        }
        return (count, offset, size)
    }

    /// Replaces the 32-bit fields saturated at 0xFFFFFFFF with the ZIP64 extra field's 64-bit values, which
    /// appear in the order uncompressed size, compressed size, local header offset.
    private static func applyZip64(
        _ extra: ArraySlice<UInt8>, uncompressed: inout Int64, compressed: inout Int64, local: inout Int64,
        recordOffset: Int64
    ) throws(HealthExportError) {
        guard uncompressed == 0xFFFF_FFFF || compressed == 0xFFFF_FFFF || local == 0xFFFF_FFFF else { return }
        let bytes = Array(extra)
        var position = 0
        while position + 4 <= bytes.count {
            let id = bytes.littleEndian16(at: position)
            let length = Int(bytes.littleEndian16(at: position + 2))
            guard position + 4 + length <= bytes.count else { break }
            if id == 0x0001 {
                var field = position + 4
                let end = field + length
                func next(_ value: inout Int64) throws(HealthExportError) {
                    guard value == 0xFFFF_FFFF else { return }
                    guard field + 8 <= end else {
                        throw .damagedZip(offset: recordOffset, problem: "the ZIP64 extra field is too short")
                    }
                    value = Int64(bitPattern: bytes.littleEndian64(at: field))
                    field += 8
                }
                try next(&uncompressed)
                try next(&compressed)
                try next(&local)
                return
            }
            position += 4 + length
        }
        throw .damagedZip(offset: recordOffset, problem: "a 4 GB field without its ZIP64 extra field")
    }
}

extension Array where Element == UInt8 {
    func littleEndian16(at index: Int) -> UInt16 {
        UInt16(self[index]) | UInt16(self[index + 1]) << 8
    }

    func littleEndian32(at index: Int) -> UInt32 {
        UInt32(littleEndian16(at: index)) | UInt32(littleEndian16(at: index + 2)) << 16
    }

    func littleEndian64(at index: Int) -> UInt64 {
        UInt64(littleEndian32(at: index)) | UInt64(littleEndian32(at: index + 4)) << 32
    }
}
