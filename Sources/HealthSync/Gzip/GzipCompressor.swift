import CZlib
import Foundation

/// A streaming gzip (RFC 1952) compressor over zlib's `deflate`.
///
/// Feed it chunks of any size with ``compress(_:)-(some DataProtocol)``; each call returns the compressed bytes
/// zlib has produced so far (often none for small chunks). End with ``finish()``, which returns the remaining
/// bytes and the gzip trailer. The concatenation of every returned piece is one gzip member that `gunzip` reads.
///
/// Memory stays constant whatever the input size: zlib's state (about 256 KiB at the default settings) and one
/// fixed 64 KiB output buffer, reused by every call. Only the returned `Data` grows with what zlib emits.
///
/// - Note: A compressor is a mutable, single-owner object and is not `Sendable`: use it from one task or thread.
public final class GzipCompressor {
    /// zlib's default compromise between speed and size.
    public static let defaultLevel = 6

    /// The compression level this compressor was made with, `0` (store only) to `9` (smallest).
    public let level: Int

    /// zlib keeps a pointer back to its `z_stream`, so the stream lives at a fixed heap address.
    private let stream: UnsafeMutablePointer<z_stream>
    private let buffer: UnsafeMutableRawBufferPointer
    private var finished = false

    /// The size of the fixed output buffer reused by every call.
    private static let bufferSize = 64 * 1024

    /// Makes a compressor that writes a gzip wrapper (windowBits 15 + 16) at the given level.
    ///
    /// - Parameter level: `0` (store) to `9` (smallest); ``defaultLevel`` when omitted.
    /// - Throws: ``GzipError/invalidLevel(_:)`` outside `0...9`; ``GzipError/zlib(function:code:message:)`` when
    ///   zlib cannot initialise (out of memory, incompatible library).
    public init(level: Int = GzipCompressor.defaultLevel) throws(GzipError) {
        guard (0...9).contains(level) else { throw .invalidLevel(level) }
        self.level = level
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = deflateInit2_(
            stream, Int32(level), Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            let message = stream.pointee.msg.map { String(cString: $0) }
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .zlib(function: "deflateInit2_", code: .init(rawValue: status), message: message)
        }
        self.stream = stream
        self.buffer = .allocate(byteCount: Self.bufferSize, alignment: 1)
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        buffer.deallocate()
    }

    /// Compresses the next chunk of input and returns the gzip bytes produced so far.
    ///
    /// - Parameter chunk: the next input bytes, any size (including empty).
    /// - Returns: compressed bytes, possibly empty: zlib buffers input until it has a block's worth.
    /// - Throws: ``GzipError/alreadyFinished`` after ``finish()``; ``GzipError/zlib(function:code:message:)``.
    public func compress(_ chunk: some DataProtocol) throws(GzipError) -> Data {
        var output = Data()
        for region in chunk.regions {
            let result = region.withUnsafeBytes { bytes -> Result<Data, GzipError> in
                Result { () throws(GzipError) -> Data in try self.compress(bytes) }
            }
            output += try result.get()
        }
        if chunk.regions.isEmpty { try checkNotFinished() }
        return output
    }

    /// Compresses the next chunk of input from raw memory and returns the gzip bytes produced so far.
    ///
    /// - Parameter chunk: the next input bytes, read during the call only.
    /// - Returns: compressed bytes, possibly empty.
    /// - Throws: ``GzipError/alreadyFinished`` after ``finish()``; ``GzipError/zlib(function:code:message:)``.
    public func compress(_ chunk: UnsafeRawBufferPointer) throws(GzipError) -> Data {
        try checkNotFinished()
        var output = Data()
        guard let base = chunk.baseAddress, !chunk.isEmpty else { return output }
        // zlib reads through a non-const pointer but never writes to the input.
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        var remaining = chunk.count
        while remaining > 0 {
            // avail_in is 32-bit: feed huge chunks in slices.
            let slice = min(remaining, Int(UInt32.max))
            stream.pointee.avail_in = uInt(slice)
            repeat {
                try deflateOnce(flush: Z_NO_FLUSH, into: &output)
            } while stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0
            remaining -= slice
        }
        stream.pointee.next_in = nil
        return output
    }

    /// Ends the stream: returns the last compressed bytes and the gzip trailer (CRC-32 and length).
    ///
    /// - Returns: the final bytes; after this call the compressor accepts no more input.
    /// - Throws: ``GzipError/alreadyFinished`` when called twice; ``GzipError/zlib(function:code:message:)``.
    public func finish() throws(GzipError) -> Data {
        try checkNotFinished()
        var output = Data()
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        var status: Int32
        repeat {
            status = try deflateOnce(flush: Z_FINISH, into: &output)
        } while status != Z_STREAM_END
        finished = true
        return output
    }

    private func checkNotFinished() throws(GzipError) {
        if finished { throw .alreadyFinished }
    }

    /// One `deflate` call into the fixed buffer; appends what it produced.
    @discardableResult
    private func deflateOnce(flush: Int32, into output: inout Data) throws(GzipError) -> Int32 {
        stream.pointee.next_out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(buffer.count)
        let status = deflate(stream, flush)
        // Z_BUF_ERROR only means "no progress possible now", which is not fatal.
        guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
            let message = stream.pointee.msg.map { String(cString: $0) }
            throw .zlib(function: "deflate", code: .init(rawValue: status), message: message)
        }
        let produced = buffer.count - Int(stream.pointee.avail_out)
        if produced > 0 {
            output.append(UnsafeRawBufferPointer(rebasing: buffer[..<produced]).assumingMemoryBound(to: UInt8.self))
        }
        return status
    }
}

extension Data {
    /// These bytes compressed into one gzip member, in one call.
    ///
    /// - Parameter level: `0` (store) to `9` (smallest); ``GzipCompressor/defaultLevel`` when omitted.
    /// - Returns: the gzip bytes (header, deflate data, CRC-32 and length trailer).
    /// - Throws: ``GzipError/invalidLevel(_:)`` outside `0...9`; ``GzipError/zlib(function:code:message:)``.
    public func gzipped(level: Int = GzipCompressor.defaultLevel) throws(GzipError) -> Data {
        let compressor = try GzipCompressor(level: level)
        return try compressor.compress(self) + compressor.finish()
    }
}
