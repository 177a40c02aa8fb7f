import CZlib

/// One zip entry's bytes, read in chunks: stored entries are copied, deflated ones pass through zlib's raw
/// inflate (windowBits −15). The CRC-32 and length are checked when the entry ends.
final class ZipEntrySource: ExportByteSource {
    private let file: ReadOnlyFile
    private let entry: ZipArchive.Entry
    private let dataStart: Int64
    private var compressedRead: Int64 = 0
    private var produced: Int64 = 0
    private var crc: UInt32 = 0
    private var finished = false
    private let stream: UnsafeMutablePointer<z_stream>?
    private let input: UnsafeMutableRawBufferPointer

    private static let inputSize = 1 << 20

    var consumedBytes: Int64 { dataStart + compressedRead }
    var totalBytes: Int64 { file.size }

    init(archive: ZipArchive, entry: ZipArchive.Entry) throws(HealthExportError) {
        file = archive.file
        self.entry = entry
        guard entry.method == 0 || entry.method == 8 else {
            throw .unsupportedCompression(entry: entry.name, method: entry.method)
        }
        guard let header = try file.bytes(at: entry.localHeaderOffset, count: 30),
            header.littleEndian32(at: 0) == ZipArchive.localHeaderSignature
        else {
            throw .damagedZip(offset: entry.localHeaderOffset, problem: "expected the local header of \(entry.name)")
        }
        dataStart =
            entry.localHeaderOffset + 30 + Int64(header.littleEndian16(at: 26)) + Int64(header.littleEndian16(at: 28))
        guard dataStart + entry.compressedSize <= file.size else {
            throw .damagedZip(offset: dataStart, problem: "\(entry.name) runs past the end of the file")
        }
        input = .allocate(byteCount: Self.inputSize, alignment: 16)
        if entry.method == 8 {
            let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
            stream.initialize(to: z_stream())
            guard inflateInit2_(stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                stream.deallocate()
                input.deallocate()
                throw .damagedZip(offset: dataStart, problem: "zlib could not start inflating")
            }
            self.stream = stream
        } else {
            stream = nil
        }
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        input.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(HealthExportError) -> Int {
        guard !finished, buffer.count > 0 else { return 0 }
        let count: Int
        if let stream {
            count = try inflate(stream, into: buffer)
        } else {
            let wanted = Int(min(Int64(buffer.count), entry.compressedSize - compressedRead))
            count = try file.read(
                at: dataStart + compressedRead, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
            compressedRead += Int64(count)
            if count < wanted {
                throw .damagedZip(offset: dataStart + compressedRead, problem: "\(entry.name) is cut short")
            }
            if compressedRead == entry.compressedSize { finished = true }
        }
        if count > 0 {
            crc = UInt32(
                crc32(uLong(crc), buffer.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(count)))
            produced += Int64(count)
        }
        if finished { try verify() }
        return count
    }

    private func inflate(
        _ stream: UnsafeMutablePointer<z_stream>, into buffer: UnsafeMutableRawBufferPointer
    ) throws(HealthExportError) -> Int {
        stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(buffer.count)
        while stream.pointee.avail_out == uInt(buffer.count) {
            if stream.pointee.avail_in == 0 {
                let wanted = Int(min(Int64(Self.inputSize), entry.compressedSize - compressedRead))
                guard wanted > 0 else {
                    throw .damagedZip(
                        offset: dataStart + compressedRead, problem: "the deflate data of \(entry.name) ends early")
                }
                let count = try file.read(
                    at: dataStart + compressedRead, into: UnsafeMutableRawBufferPointer(rebasing: input[..<wanted]))
                guard count == wanted else {
                    throw .damagedZip(
                        offset: dataStart + compressedRead + Int64(count), problem: "\(entry.name) is cut short")
                }
                compressedRead += Int64(count)
                stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = uInt(count)
            }
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            if status == Z_STREAM_END {
                finished = true
                break
            }
            guard status == Z_OK else {
                let offset = dataStart + compressedRead - Int64(stream.pointee.avail_in)
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw .damagedZip(offset: offset, problem: "the deflate data of \(entry.name) is damaged: \(message)")
            }
        }
        return buffer.count - Int(stream.pointee.avail_out)
    }

    private func verify() throws(HealthExportError) {
        guard produced == entry.uncompressedSize else {
            throw .damagedZip(
                offset: dataStart + compressedRead,
                problem: "\(entry.name) holds \(produced) bytes; the directory says \(entry.uncompressedSize)")
        }
        guard crc == entry.crc32 else {
            throw .damagedZip(
                offset: dataStart,
                problem: "\(entry.name) fails its CRC-32 check (\(hex(crc)) instead of \(hex(entry.crc32)))")
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
