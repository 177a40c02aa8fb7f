import Foundation
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an upload's bytes come from: a source that makes a fresh `InputStream` (or `Data`) for every attempt.
///
/// A stream is consumed by one attempt, so a transport asks for a new one each time it tries. On Linux the
/// HTTP transport sends from a stream or `Data`, never from a file URL (FoundationNetworking's
/// `upload(fromFile:)` crashes the process when the server drops the connection mid-body).
public struct UploadBody: Sendable {
    private enum Source: Sendable {
        case data(Data)
        case file(FileSystemPath)
        case stream(@Sendable () throws -> InputStream)
    }

    private let source: Source

    /// A body held in memory (for small batches).
    ///
    /// - Parameter data: The bytes.
    /// - Returns: The body.
    public static func data(_ data: Data) -> UploadBody {
        UploadBody(source: .data(data))
    }

    /// A body read from a prepared file, through a new `InputStream` per attempt: the file at the URL's path,
    /// as ``file(atPath:)`` reads it.
    ///
    /// - Parameter url: The file holding the body.
    /// - Returns: The body.
    public static func file(at url: URL) -> UploadBody {
        file(atPath: FileSystemPath(url))
    }

    /// A body read from the prepared file at `path`, byte for byte (`open(2)` and `read(2)` on the path's bytes,
    /// so a folder whose name is not UTF-8 is read where it is), through a new stream per attempt.
    ///
    /// - Parameter path: The file holding the body.
    /// - Returns: The body.
    public static func file(atPath path: FileSystemPath) -> UploadBody {
        UploadBody(source: .file(path))
    }

    /// A body from a closure that makes a new, unopened stream each time it is called.
    ///
    /// - Parameter makeStream: Makes a fresh stream positioned at the start of the body.
    /// - Returns: The body.
    public static func stream(_ makeStream: @escaping @Sendable () throws -> InputStream) -> UploadBody {
        UploadBody(source: .stream(makeStream))
    }

    /// A new, unopened stream over the whole body, for one attempt.
    ///
    /// - Returns: The stream. A file's stream opens the file when it is opened, and is in the `error` state, with
    ///   ``UploadError/bodyUnavailable(_:)`` as its `streamError`, when the file cannot be opened.
    /// - Throws: The closure's error.
    public func makeInputStream() throws -> InputStream {
        switch source {
        case .data(let data):
            return InputStream(data: data)
        case .file(let path):
            return FileInputStream(path: path)
        case .stream(let makeStream):
            return try makeStream()
        }
    }

    /// The whole body in memory, for transports that send `Data` (small bodies only).
    ///
    /// - Returns: The bytes.
    /// - Throws: ``UploadError/bodyUnavailable(_:)`` when the body cannot be read.
    public func makeData() throws -> Data {
        switch source {
        case .data(let data):
            return data
        case .file(let path):
            do throws(PathCallFailure) {
                return Data(try path.readContents())
            } catch {
                throw UploadError.bodyUnavailable(
                    "cannot read \(path) (\(error.operation) failed, errno \(error.code))")
            }
        case .stream:
            var data = Data()
            try forEachChunk { data.append(contentsOf: $0) }
            return data
        }
    }

    /// The whole body in memory, which must be exactly `length` bytes long: memory is only ever taken for
    /// `length` bytes, whatever the source holds — a file is measured before it is read, a stream is read no
    /// further than one byte past `length` — so a wrong or damaged length fails with an error instead of an
    /// allocation as large as the file.
    /// - Throws: ``UploadError/lengthMismatch(expected:actual:)`` when the body is shorter or longer (`actual` is
    ///   `length + 1` for a stream that goes on), or ``UploadError/bodyUnavailable(_:)``.
    func makeData(exactly length: Int64) throws -> Data {
        guard length >= 0 else { throw UploadError.lengthMismatch(expected: length, actual: 0) }
        switch source {
        case .data(let data):
            guard Int64(data.count) == length else {
                throw UploadError.lengthMismatch(expected: length, actual: Int64(data.count))
            }
            return data
        case .file(let path):
            var info = stat()
            guard path.withCString({ stat($0, &info) }) == 0 else {
                throw UploadError.bodyUnavailable("cannot read \(path) (stat failed, errno \(errno))")
            }
            guard Int64(info.st_size) == length else {
                throw UploadError.lengthMismatch(expected: length, actual: Int64(info.st_size))
            }
        case .stream:
            break
        }
        var data = Data()
        data.reserveCapacity(Int(min(length, 1 << 20)))
        try forEachChunk { chunk in
            guard Int64(data.count + chunk.count) <= length else {
                throw UploadError.lengthMismatch(expected: length, actual: length + 1)
            }
            data.append(contentsOf: chunk)
        }
        guard Int64(data.count) == length else {
            throw UploadError.lengthMismatch(expected: length, actual: Int64(data.count))
        }
        return data
    }

    /// Reads the body through a fresh stream in chunks of at most `chunkSize` bytes.
    ///
    /// - Parameters:
    ///   - chunkSize: The largest chunk handed to `body`.
    ///   - consume: Receives each chunk, valid only during the call.
    /// - Throws: ``UploadError/bodyUnavailable(_:)`` when the stream fails, or `consume`'s error.
    public func forEachChunk(
        chunkSize: Int = 65_536, _ consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        if case .data(let data) = source {
            return try data.withUnsafeBytes { try consume($0) }
        }
        try Self.forEachChunk(of: try makeInputStream(), chunkSize: chunkSize, consume)
    }

    /// Opens `stream`, hands `consume` each run of at most `chunkSize` bytes read from it, and closes it.
    /// - Throws: ``UploadError/bodyUnavailable(_:)`` when the stream fails, or `consume`'s error.
    static func forEachChunk(
        of stream: InputStream, chunkSize: Int, _ consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: max(chunkSize, 1))
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { pointer in
                pointer.baseAddress.map { stream.read($0, maxLength: pointer.count) } ?? -1
            }
            if count < 0 {
                throw UploadError.bodyUnavailable("stream read failed: \(stream.streamError.map { "\($0)" } ?? "?")")
            }
            if count == 0 { return }
            try buffer.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }
}
