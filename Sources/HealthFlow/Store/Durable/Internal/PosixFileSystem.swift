#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The system calls whose names the types below reuse for their own methods.
private func posixClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func posixRename(_ source: UnsafePointer<CChar>, _ destination: UnsafePointer<CChar>) -> Int32 {
    rename(source, destination)
}

/// ``StoreFileSystem`` over POSIX calls: `open` with `O_CLOEXEC`, `pwrite`, `fsync`, `ftruncate`, `rename`,
/// `unlink`, `flock`, and `fsync` of the directory after changing its entries. Files are created 0600 and
/// directories 0700 whatever the umask (an explicit `fchmod`/`chmod` follows creation). Every call gets the
/// path's bytes as they are (``FileSystemPath/withCString(_:)``).
struct PosixFileSystem: StoreFileSystem {
    /// How a busy lock is waited on between tries (10 ms each, counted against ``lockPatience``): a real sleep,
    /// or — in tests — a step that releases the lock, so no test waits on the clock.
    let pauseBetweenLockTries: @Sendable () -> Void

    init(pauseBetweenLockTries: @escaping @Sendable () -> Void = { usleep(10_000) }) {
        self.pauseBetweenLockTries = pauseBetweenLockTries
    }

    func makeDirectory(at path: FileSystemPath) throws(FileStoreError) {
        if path.withCString({ mkdir($0, 0o700) }) == 0 {
            guard path.withCString({ chmod($0, 0o700) }) == 0 else { throw .io("chmod", path, errno) }
            return
        }
        let code = errno
        guard code == EEXIST else { throw .io("mkdir", path, code) }
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { throw .io("stat", path, errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: path.description) }
    }

    func contentsOfDirectory(at path: FileSystemPath) throws(FileStoreError) -> [String] {
        try Self.mapFailure { () throws(PathCallFailure) in
            try path.entryNames().compactMap { String(validating: $0.bytes, as: UTF8.self) }
        }
    }

    func readFile(at path: FileSystemPath) throws(FileStoreError) -> [UInt8] {
        try Self.mapFailure { () throws(PathCallFailure) in try path.readContents() }
    }

    func createFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile {
        let descriptor = path.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw .io("open", path, errno) }
        guard fchmod(descriptor, 0o600) == 0 else {
            let code = errno
            _ = posixClose(descriptor)
            throw .io("fchmod", path, code)
        }
        return PosixFile(descriptor: descriptor, path: path)
    }

    func openFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile {
        let descriptor = path.withCString { open($0, O_WRONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .io("open", path, errno) }
        return PosixFile(descriptor: descriptor, path: path)
    }

    func openFileForReading(at path: FileSystemPath) throws(FileStoreError) -> any ReadableStoreFile {
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .io("open", path, errno) }
        return PosixReadableFile(descriptor: descriptor, path: path)
    }

    func rename(_ source: FileSystemPath, to destination: FileSystemPath) throws(FileStoreError) {
        let result = source.withCString { from in destination.withCString { to in posixRename(from, to) } }
        guard result == 0 else { throw .io("rename", destination, errno) }
    }

    func removeFile(at path: FileSystemPath) throws(FileStoreError) {
        guard path.withCString({ unlink($0) }) == 0 || errno == ENOENT else { throw .io("unlink", path, errno) }
    }

    func syncDirectory(at path: FileSystemPath) throws(FileStoreError) {
        let descriptor = path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .io("open", path, errno) }
        defer { _ = posixClose(descriptor) }
        guard fsync(descriptor) == 0 else { throw .io("fsync", path, errno) }
    }

    /// How long a held lock is waited out before the store reports `alreadyOpen` (1 s, in 10 ms steps; see
    /// `FileSystemPath.lockExclusively(patience:pause:)` for who holds a lock for a moment). A store really
    /// open elsewhere stays busy and is reported.
    static let lockPatience = Duration.seconds(1)

    func lockFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile {
        let locked = try Self.mapFailure { () throws(PathCallFailure) in
            try path.lockExclusively(patience: Self.lockPatience, pause: pauseBetweenLockTries)
        }
        guard let descriptor = locked else { throw .alreadyOpen(path: path.description) }
        return PosixFile(descriptor: descriptor, path: path)
    }

    /// Runs one of the package's path calls, reporting its failure as the store's ``FileStoreError/io(operation:path:errno:)``.
    private static func mapFailure<Result>(
        _ call: () throws(PathCallFailure) -> Result
    ) throws(FileStoreError) -> Result {
        do throws(PathCallFailure) {
            return try call()
        } catch {
            throw .io(operation: error.operation, path: error.path, errno: error.code)
        }
    }
}

extension FileStoreError {
    /// `io` for a failed call on a byte path, which the error names in its display form.
    static func io(_ operation: String, _ path: FileSystemPath, _ code: Int32) -> FileStoreError {
        .io(operation: operation, path: path.description, errno: code)
    }
}

/// A file descriptor. Used under the store's locks only, never concurrently.
final class PosixFile: StoreFile {
    private var descriptor: Int32
    /// The file's name as it is now: what every error names.
    private var path: FileSystemPath

    init(descriptor: Int32, path: FileSystemPath) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close() }

    func write(_ bytes: [UInt8], at offset: Int) throws(FileStoreError) {
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count, let base = buffer.baseAddress {
                let count = pwrite(descriptor, base + written, buffer.count - written, off_t(offset + written))
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += count
            }
        }
        if failure != 0 { throw .io("write", path, failure) }
    }

    func sync() throws(FileStoreError) {
        guard fsync(descriptor) == 0 else { throw .io("fsync", path, errno) }
    }

    func truncate(to length: Int) throws(FileStoreError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw .io("ftruncate", path, errno)
        }
    }

    func rename(to destination: FileSystemPath) throws(FileStoreError) {
        let result = path.withCString { from in destination.withCString { to in posixRename(from, to) } }
        guard result == 0 else { throw .io("rename", destination, errno) }
        path = destination
    }

    func close() {
        guard descriptor >= 0 else { return }
        _ = posixClose(descriptor)
        descriptor = -1
    }
}

/// A file descriptor open for reading. Used under the store's locks only, never concurrently.
final class PosixReadableFile: ReadableStoreFile {
    private var descriptor: Int32
    private let path: FileSystemPath

    init(descriptor: Int32, path: FileSystemPath) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close() }

    func size() throws(FileStoreError) -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .io("fstat", path, errno) }
        return Int(info.st_size)
    }

    func read(count: Int, at offset: Int) throws(FileStoreError) -> [UInt8] {
        guard count >= 0, offset >= 0 else { throw .io("pread", path, EINVAL) }
        var failure: Int32 = 0
        var filled = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while filled < count, let base = buffer.baseAddress {
                let got = pread(descriptor, base + filled, count - filled, off_t(offset + filled))
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if got == 0 { break }
                filled += got
            }
            // Bytes not read are zeroed so the array is fully initialized; a short read throws below.
            if filled < count, let base = buffer.baseAddress {
                (base + filled).initialize(repeating: 0, count: count - filled)
            }
            initialized = count
        }
        if failure != 0 { throw .io("pread", path, failure) }
        guard filled == count else {
            throw .corruptFile(name: path.lastComponent.description, offset: offset + filled, problem: .truncated)
        }
        return bytes
    }

    func close() {
        guard descriptor >= 0 else { return }
        _ = posixClose(descriptor)
        descriptor = -1
    }
}
