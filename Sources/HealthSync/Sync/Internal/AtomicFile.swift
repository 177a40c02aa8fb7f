import Foundation
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes files atomically: a temp file (mode 0600, `O_EXCL`) in the destination's folder, the bytes, `fsync`,
/// then `rename` (replace) or `link` (no-replace), and an `fsync` of the folder so the new name is durable.
///
/// A crash leaves either the old file or the new one, plus at most a temp file named
/// `.<name>.tmp-<UUID>`, which ``removeLeftovers(for:)`` deletes. Paths are bytes (``FileSystemPath``): the temp
/// name is the destination's name byte for byte with a prefix and a suffix. Failures are ``PathCallFailure``s.
enum AtomicFile {
    /// What happened to the destination.
    enum Outcome {
        /// The destination now holds the new bytes.
        case written
        /// `replaceExisting` was false and the destination already existed; it was left untouched.
        case alreadyExisted
    }

    /// A point of a write that a crash test stops at.
    enum Step {
        /// The bytes are `fsync`ed under the temp name; the destination is untouched.
        case fileSynced
        /// The destination names the new bytes; the folder is not yet `fsync`ed, so after a power loss it may
        /// still name the old ones.
        case renamed
    }

    /// Told the path of every `fsync` made in the task that binds it (the file's temp path, or the folder): the
    /// seam tests count `fsync`s through. `nil` outside tests.
    @TaskLocal static var fsyncObserver: (@Sendable (FileSystemPath) -> Void)?

    /// `.<name>.tmp-`: how every temp name of `destination` starts.
    static func tempPrefix(for destination: FileSystemPath) -> [UInt8] {
        Array(".".utf8) + destination.lastComponent.bytes + Array(".tmp-".utf8)
    }

    /// Writes the bytes `produce` hands to its writer into `destination`, atomically.
    ///
    /// - Parameters:
    ///   - replaceExisting: `true` renames over an existing file; `false` keeps an existing file and reports it.
    ///   - syncFolder: `false` leaves the folder's `fsync` (which makes the new name durable) to the caller.
    ///   - onStep: Told each ``Step`` as it is passed.
    ///   - produce: Calls the given closure with each run of bytes; an error it throws removes the temp file.
    static func write(
        to destination: FileSystemPath, replaceExisting: Bool, syncFolder: Bool = true,
        onStep: ((Step) -> Void)? = nil, _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> Outcome {
        let folder = destination.parent
        let tempPath = folder.appending(
            FileSystemPath(unchecked: tempPrefix(for: destination) + Array(UUID().uuidString.utf8)))
        let descriptor = tempPath.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw PathCallFailure(operation: "open", path: tempPath, code: errno) }
        var committed = false
        defer { if !committed { _ = tempPath.withCString { unlink($0) } } }
        do {
            defer { close(descriptor) }
            // The mode given to open is filtered by the umask; make 0600 exact.
            guard fchmod(descriptor, 0o600) == 0 else {
                throw PathCallFailure(operation: "fchmod", path: tempPath, code: errno)
            }
            try produce { chunk in try tempPath.writeAll(chunk, to: descriptor) }
            try syncDescriptor(descriptor, path: tempPath)
        }
        onStep?(.fileSynced)
        let outcome: Outcome
        if replaceExisting {
            guard tempPath.withCString({ from in destination.withCString { rename(from, $0) } }) == 0 else {
                throw PathCallFailure(operation: "rename", path: destination, code: errno)
            }
            committed = true
            outcome = .written
        } else if tempPath.withCString({ from in destination.withCString { link(from, $0) } }) == 0 {
            outcome = .written
        } else if errno == EEXIST {
            outcome = .alreadyExisted
        } else {
            throw PathCallFailure(operation: "link", path: destination, code: errno)
        }
        // `link` leaves the temp name behind (the defer removes it); `rename` consumed it.
        onStep?(.renamed)
        if syncFolder { try Self.syncFolder(folder) }
        return outcome
    }

    /// Deletes temp files a crash left beside `destination`.
    static func removeLeftovers(for destination: FileSystemPath) {
        let folder = destination.parent
        let prefix = tempPrefix(for: destination)
        for name in (try? folder.entryNames()) ?? [] where name.bytes.starts(with: prefix) {
            _ = folder.appending(name).withCString { unlink($0) }
        }
    }

    static func syncFolder(_ folder: FileSystemPath) throws(PathCallFailure) {
        let descriptor = folder.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw PathCallFailure(operation: "open", path: folder, code: errno) }
        defer { close(descriptor) }
        try syncDescriptor(descriptor, path: folder)
    }

    /// `fsync(2)` of the open `descriptor` for `path`, told to ``fsyncObserver``.
    private static func syncDescriptor(_ descriptor: Int32, path: FileSystemPath) throws(PathCallFailure) {
        guard fsync(descriptor) == 0 else { throw PathCallFailure(operation: "fsync", path: path, code: errno) }
        fsyncObserver?(path)
    }
}
