import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call while writing a file atomically: the operation, the path and `errno`.
struct AtomicFileFailure: Error {
    let operation: String
    let path: String
    let code: Int32
}

/// Writes files atomically: a temp file (mode 0600, `O_EXCL`) in the destination's folder, the bytes, `fsync`,
/// then `rename` (replace) or `link` (no-replace), and an `fsync` of the folder so the new name is durable.
///
/// A crash leaves either the old file or the new one, plus at most a temp file named
/// `.<name>.tmp-<UUID>`, which ``removeLeftovers(for:)`` deletes.
enum AtomicFile {
    /// What happened to the destination.
    enum Outcome {
        /// The destination now holds the new bytes.
        case written
        /// `replaceExisting` was false and the destination already existed; it was left untouched.
        case alreadyExisted
    }

    static func tempPrefix(for destination: URL) -> String {
        "." + destination.lastPathComponent + ".tmp-"
    }

    /// Writes the bytes `produce` hands to its writer into `destination`, atomically.
    ///
    /// - Parameters:
    ///   - replaceExisting: `true` renames over an existing file; `false` keeps an existing file and reports it.
    ///   - produce: Calls the given closure with each run of bytes; an error it throws removes the temp file.
    static func write(
        to destination: URL, replaceExisting: Bool,
        _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> Outcome {
        let folder = destination.deletingLastPathComponent().path
        let tempPath = folder + "/" + tempPrefix(for: destination) + UUID().uuidString
        let descriptor = open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw AtomicFileFailure(operation: "open", path: tempPath, code: errno) }
        var committed = false
        defer { if !committed { unlink(tempPath) } }
        do {
            defer { close(descriptor) }
            // The mode given to open is filtered by the umask; make 0600 exact.
            guard fchmod(descriptor, 0o600) == 0 else {
                throw AtomicFileFailure(operation: "fchmod", path: tempPath, code: errno)
            }
            try produce { chunk in try writeAll(chunk, to: descriptor, path: tempPath) }
            guard fsync(descriptor) == 0 else {
                throw AtomicFileFailure(operation: "fsync", path: tempPath, code: errno)
            }
        }
        let outcome: Outcome
        if replaceExisting {
            guard rename(tempPath, destination.path) == 0 else {
                throw AtomicFileFailure(operation: "rename", path: destination.path, code: errno)
            }
            committed = true
            outcome = .written
        } else if link(tempPath, destination.path) == 0 {
            outcome = .written
        } else if errno == EEXIST {
            outcome = .alreadyExisted
        } else {
            throw AtomicFileFailure(operation: "link", path: destination.path, code: errno)
        }
        // `link` leaves the temp name behind (the defer removes it); `rename` consumed it.
        try syncFolder(folder)
        return outcome
    }

    /// Deletes temp files a crash left beside `destination`.
    static func removeLeftovers(for destination: URL) {
        let folder = destination.deletingLastPathComponent()
        let prefix = tempPrefix(for: destination)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            unlink(folder.path + "/" + name)
        }
    }

    static func syncFolder(_ folder: String) throws {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AtomicFileFailure(operation: "open", path: folder, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw AtomicFileFailure(operation: "fsync", path: folder, code: errno) }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return }
            let written = posixWrite(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw AtomicFileFailure(operation: "write", path: path, code: errno)
            }
            offset += written
        }
    }
}

/// The C `write`, named apart from ``AtomicFile/write(to:replaceExisting:_:)``.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
