#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file read with `pread`, closed when released.
final class ReadOnlyFile {
    let path: String
    let size: Int64
    private let descriptor: Int32

    init(path: String) throws(HealthExportError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw code == ENOENT ? .notFound(path: path) : .io(path: path, operation: "open", errno: code)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw .io(path: path, operation: "fstat", errno: code)
        }
        self.path = path
        self.descriptor = descriptor
        self.size = Int64(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `buffer.count` bytes at `offset`; fewer only at the end of the file.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(HealthExportError) -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, operation: "pread", errno: errno)
            }
            if count == 0 { break }
            done += count
        }
        return done
    }

    /// Reads exactly `count` bytes at `offset`, or `nil` when the file ends first.
    func bytes(at offset: Int64, count: Int) throws(HealthExportError) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(HealthExportError) in try self.read(at: offset, into: buffer) }
        }
        return try read.get() == count ? bytes : nil
    }
}

/// export.xml read straight from a file.
final class FileByteSource: ExportByteSource {
    private let file: ReadOnlyFile
    private(set) var consumedBytes: Int64 = 0
    var totalBytes: Int64 { file.size }

    init(file: ReadOnlyFile) {
        self.file = file
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(HealthExportError) -> Int {
        let count = try file.read(at: consumedBytes, into: buffer)
        consumedBytes += Int64(count)
        return count
    }
}
