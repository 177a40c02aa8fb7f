import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call on a path: which call, on which path (its display form) and its `errno`.
package struct PathCallFailure: Error, Sendable, CustomStringConvertible {
    package let operation: String
    package let path: String
    package let code: Int32

    package init(operation: String, path: FileSystemPath, code: Int32) {
        self.operation = operation
        self.path = path.description
        self.code = code
    }

    /// `mkdir failed for /a/b: Permission denied (errno 13)`.
    package var description: String {
        let message = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return "\(operation) failed for \(path): \(message) (errno \(code))"
    }
}

// The system calls whose names the methods below reuse.
private func posixClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// The system calls the package makes on byte paths (the store's ``PosixFileSystem``, HealthSync's files and the
/// command's folders), each with the real `errno` of the call that failed — FileManager reports none on Linux,
/// and takes `String` paths, which cannot hold bytes that are not UTF-8.
extension FileSystemPath {
    /// Creates the folder and any missing parent, as `mkdir -p` does; each new folder gets `mode` exactly (the
    /// umask does not apply). An existing folder is kept as it is; an existing file fails with `ENOTDIR`.
    package func makeFolders(mode: mode_t) throws(PathCallFailure) {
        var prefix = isAbsolute ? FileSystemPath(unchecked: []) : FileSystemPath(unchecked: [UInt8(ascii: ".")])
        for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            prefix = FileSystemPath(unchecked: prefix.bytes + [UInt8(ascii: "/")] + component)
            if prefix.withCString({ mkdir($0, mode) }) == 0 {
                guard prefix.withCString({ chmod($0, mode) }) == 0 else {
                    throw PathCallFailure(operation: "chmod", path: prefix, code: errno)
                }
                continue
            }
            let code = errno
            var status = stat()
            guard code == EEXIST, prefix.withCString({ stat($0, &status) }) == 0 else {
                throw PathCallFailure(operation: "mkdir", path: prefix, code: code)
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw PathCallFailure(operation: "mkdir", path: prefix, code: ENOTDIR)
            }
        }
    }

    /// Opens the file (created if missing; mode 0600) and takes an exclusive `flock` on it, waiting out a lock
    /// held for a moment: a child process being started (any thread's `Process`, `posix_spawn` or `fork`) holds
    /// a copy of every descriptor until its `exec` closes the close-on-exec ones, so a lock its owner has just
    /// released can still look busy. A lock really held elsewhere stays busy for all of `patience`.
    ///
    /// - Parameters:
    ///   - patience: How long to keep trying, in steps of 10 ms.
    ///   - pause: Waits one step (10 ms) between tries.
    /// - Returns: The descriptor that holds the lock (closing it releases the lock), or `nil` when another open
    ///   file still keeps it after `patience`.
    package func lockExclusively(patience: Duration, pause: () -> Void) throws(PathCallFailure) -> Int32? {
        let descriptor = withCString { open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw PathCallFailure(operation: "open", path: self, code: errno) }
        var waited = Duration.zero
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK, waited < patience {
                pause()
                waited += .milliseconds(10)
                continue
            }
            _ = posixClose(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw PathCallFailure(operation: "flock", path: self, code: code)
        }
        guard fchmod(descriptor, 0o600) == 0 else {
            let code = errno
            _ = posixClose(descriptor)
            throw PathCallFailure(operation: "fchmod", path: self, code: code)
        }
        return descriptor
    }

    /// The names in the folder (without `.` and `..`), as `readdir` gives them: byte for byte.
    package func entryNames() throws(PathCallFailure) -> [FileSystemPath] {
        guard let stream = withCString({ opendir($0) }) else {
            throw PathCallFailure(operation: "opendir", path: self, code: errno)
        }
        defer { closedir(stream) }
        var names: [FileSystemPath] = []
        while let entry = readdir(stream) {
            // Up to the NUL, read in place: a record is only as long as its name, so copying the whole 256-byte
            // `d_name` field reads past the end of the last record in the stream's buffer.
            let name = withUnsafePointer(to: &entry.pointee.d_name) { field in
                let start = UnsafeRawPointer(field)
                return Array(
                    UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self))))
            }
            if name != [UInt8(ascii: ".")] && name != [UInt8(ascii: "."), UInt8(ascii: ".")] {
                names.append(FileSystemPath(unchecked: name))
            }
        }
        return names
    }

    /// The whole file's bytes (a file that shrinks meanwhile gives what was read).
    package func readContents() throws(PathCallFailure) -> [UInt8] {
        let descriptor = withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw PathCallFailure(operation: "open", path: self, code: errno) }
        defer { _ = posixClose(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw PathCallFailure(operation: "fstat", path: self, code: errno)
        }
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
                if count == 0 { return }
                initialized += count
            }
        }
        if failure != 0 { throw PathCallFailure(operation: "read", path: self, code: failure) }
        return bytes
    }

    /// Creates (or truncates) the file with `mode` exactly and writes `contents` into it. Not atomic: for small
    /// files whose loss a reader tolerates.
    package func writeContents(_ contents: [UInt8], mode: mode_t) throws(PathCallFailure) {
        let descriptor = withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }
        guard descriptor >= 0 else { throw PathCallFailure(operation: "open", path: self, code: errno) }
        defer { _ = posixClose(descriptor) }
        guard fchmod(descriptor, mode) == 0 else {
            throw PathCallFailure(operation: "fchmod", path: self, code: errno)
        }
        try writeAll(contents, to: descriptor)
    }

    /// Writes all of `bytes` to `descriptor`, an open file at this path, retrying short writes and `EINTR`.
    package func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) throws(PathCallFailure) {
        let failure = bytes.withUnsafeBytes { buffer -> PathCallFailure? in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = posixWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return PathCallFailure(operation: "write", path: self, code: errno)
                }
                offset += written
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Removes the file, or the folder and everything in it (a symbolic link is removed, never followed). A
    /// missing path is fine.
    package func removeTree() throws(PathCallFailure) {
        var status = stat()
        guard withCString({ lstat($0, &status) }) == 0 else {
            if errno == ENOENT { return }
            throw PathCallFailure(operation: "lstat", path: self, code: errno)
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            for name in try entryNames() { try appending(name).removeTree() }
            guard withCString({ rmdir($0) }) == 0 || errno == ENOENT else {
                throw PathCallFailure(operation: "rmdir", path: self, code: errno)
            }
        } else {
            guard withCString({ unlink($0) }) == 0 || errno == ENOENT else {
                throw PathCallFailure(operation: "unlink", path: self, code: errno)
            }
        }
    }
}
