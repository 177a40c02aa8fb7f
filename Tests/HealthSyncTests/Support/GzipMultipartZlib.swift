import CZlib
import Foundation

/// zlib helpers for tests: inflate a gzip member, and CRC-32 over bytes.
enum GzipMultipartZlib {
    struct InflateError: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "inflate failed with zlib code \(code)" }
    }

    /// Inflates one gzip member (windowBits 15 + 16) and checks it ends exactly at the end of the input.
    static func gunzip(_ data: Data) throws -> Data {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        let initStatus = inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else { throw InflateError(code: initStatus) }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var input = [UInt8](data)
        var status: Int32 = Z_OK
        try input.withUnsafeMutableBufferPointer { inputPointer in
            stream.pointee.next_in = inputPointer.baseAddress
            stream.pointee.avail_in = uInt(inputPointer.count)
            while status != Z_STREAM_END {
                try buffer.withUnsafeMutableBufferPointer { out in
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = uInt(out.count)
                    status = inflate(stream, Z_NO_FLUSH)
                    guard status == Z_OK || status == Z_STREAM_END else { throw InflateError(code: status) }
                    output.append(out.baseAddress!, count: out.count - Int(stream.pointee.avail_out))
                }
            }
        }
        guard stream.pointee.avail_in == 0 else { throw InflateError(code: Z_DATA_ERROR) }
        return output
    }

    /// Continues a CRC-32 over raw bytes.
    static func crc32(_ crc: UInt, _ bytes: UnsafeRawBufferPointer) -> UInt {
        guard let base = bytes.baseAddress else { return crc }
        return CZlib.crc32(crc, base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
    }

    /// CRC-32 of `data`.
    static func crc32(_ data: Data) -> UInt {
        data.withUnsafeBytes { crc32(0, $0) }
    }
}
