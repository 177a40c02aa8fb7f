#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The system calls whose names the types below reuse for their own methods.
private func posixClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func posixRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }

/// ``StoreFileSystem`` over POSIX calls: `open` with `O_CLOEXEC`, `pwrite`, `fsync`, `ftruncate`, `rename`,
/// `unlink`, `flock`, and `fsync` of the directory after changing its entries. Files are created 0600 and
/// directories 0700 whatever the umask (an explicit `fchmod`/`chmod` follows creation).
struct PosixFileSystem: StoreFileSystem {
    func makeDirectory(at path: String) throws(FileStoreError) {
        if mkdir(path, 0o700) == 0 {
            guard chmod(path, 0o700) == 0 else { throw .io(operation: "chmod", path: path, errno: errno) }
            return
        }
        let code = errno
        guard code == EEXIST else { throw .io(operation: "mkdir", path: path, errno: code) }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .io(operation: "stat", path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: path) }
    }

    func contentsOfDirectory(at path: String) throws(FileStoreError) -> [String] {
        guard let directory = opendir(path) else { throw .io(operation: "opendir", path: path, errno: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    func readFile(at path: String) throws(FileStoreError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(operation: "open", path: path, errno: errno) }
        defer { _ = posixClose(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .io(operation: "fstat", path: path, errno: errno) }
        let size = Int(info.st_size)
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            while initialized < size, let base = buffer.baseAddress {
                let count = pread(descriptor, base + initialized, size - initialized, off_t(initialized))
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if count == 0 { return }  // The file shrank meanwhile: keep what was read.
                initialized += count
            }
        }
        if failure != 0 { throw .io(operation: "read", path: path, errno: failure) }
        return bytes
    }

    func createFile(at path: String) throws(FileStoreError) -> any StoreFile {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(operation: "open", path: path, errno: errno) }
        guard fchmod(descriptor, 0o600) == 0 else {
            let code = errno
            _ = posixClose(descriptor)
            throw .io(operation: "fchmod", path: path, errno: code)
        }
        return PosixFile(descriptor: descriptor, path: path)
    }

    func openFile(at path: String) throws(FileStoreError) -> any StoreFile {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(operation: "open", path: path, errno: errno) }
        return PosixFile(descriptor: descriptor, path: path)
    }

    func rename(_ source: String, to destination: String) throws(FileStoreError) {
        guard posixRename(source, destination) == 0 else {
            throw .io(operation: "rename", path: destination, errno: errno)
        }
    }

    func removeFile(at path: String) throws(FileStoreError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .io(operation: "unlink", path: path, errno: errno) }
    }

    func syncDirectory(at path: String) throws(FileStoreError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(operation: "open", path: path, errno: errno) }
        defer { _ = posixClose(descriptor) }
        guard fsync(descriptor) == 0 else { throw .io(operation: "fsync", path: path, errno: errno) }
    }

    /// How long a held lock is waited out before the store reports `alreadyOpen` (1 s, in 10 ms steps). A lock
    /// can be held for a moment by no store at all: a child process this one is starting (any thread's
    /// `Process`, `posix_spawn` or `fork`) holds a copy of every descriptor until its `exec` closes the
    /// close-on-exec ones, so a store closed and reopened meanwhile finds its own lock busy. A store really open
    /// elsewhere stays busy and is reported.
    static let lockPatience = Duration.seconds(1)

    func lockFile(at path: String) throws(FileStoreError) -> any StoreFile {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(operation: "open", path: path, errno: errno) }
        var waited = Duration.zero
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK, waited < Self.lockPatience {
                usleep(10_000)
                waited += .milliseconds(10)
                continue
            }
            _ = posixClose(descriptor)
            if code == EWOULDBLOCK { throw .alreadyOpen(path: path) }
            throw .io(operation: "flock", path: path, errno: code)
        }
        guard fchmod(descriptor, 0o600) == 0 else {
            let code = errno
            _ = posixClose(descriptor)
            throw .io(operation: "fchmod", path: path, errno: code)
        }
        return PosixFile(descriptor: descriptor, path: path)
    }
}

/// A file descriptor. Used under the store's locks only, never concurrently.
final class PosixFile: StoreFile {
    private var descriptor: Int32
    private let path: String

    init(descriptor: Int32, path: String) {
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
        if failure != 0 { throw .io(operation: "write", path: path, errno: failure) }
    }

    func sync() throws(FileStoreError) {
        guard fsync(descriptor) == 0 else { throw .io(operation: "fsync", path: path, errno: errno) }
    }

    func truncate(to length: Int) throws(FileStoreError) {
        guard ftruncate(descriptor, off_t(length)) == 0 else {
            throw .io(operation: "ftruncate", path: path, errno: errno)
        }
    }

    func close() {
        guard descriptor >= 0 else { return }
        _ = posixClose(descriptor)
        descriptor = -1
    }
}
