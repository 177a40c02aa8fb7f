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

    /// The temp name of the file named `destinationName` for the write `tag`: `.<name>.tmp-<TAG>`, the tag spelled
    /// as `uuidString` spells it (uppercase, hyphenated). The only temp names these writes create.
    static func tempName(for destinationName: [UInt8], tag: UUID) -> [UInt8] {
        Array(".".utf8) + destinationName + Array(".tmp-".utf8) + Array(tag.uuidString.utf8)
    }

    /// The name of the destination whose temp file `name` is, when `name` is byte for byte one that
    /// ``tempName(for:tag:)`` gives; `nil` for any other name (a tag in lowercase or without its hyphens, a missing
    /// or extra byte): the one rule by which a leftover is known as one of these writes'.
    static func destinationName(ofTempName name: [UInt8]) -> [UInt8]? {
        let tagLength = 36
        let marker = Array(".tmp-".utf8)
        guard name.count > 1 + marker.count + tagLength, name.first == UInt8(ascii: ".") else { return nil }
        guard let tag = UUID(uuidString: String(decoding: name.suffix(tagLength), as: UTF8.self)) else { return nil }
        let destination = Array(name[1..<(name.count - tagLength - marker.count)])
        return tempName(for: destination, tag: tag) == name ? destination : nil
    }

    /// Writes the bytes `produce` hands to its writer into `destination`, atomically: ``stage(to:_:)``, then
    /// ``Staged/commit(replaceExisting:syncFolder:onStep:)``.
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
        let staged = try stage(to: destination, produce)
        onStep?(.fileSynced)
        return try staged.commit(replaceExisting: replaceExisting, syncFolder: syncFolder, onStep: onStep)
    }

    /// A file whose bytes are `fsync`ed under its temp name beside its destination, not yet in place: never state
    /// until ``commit(replaceExisting:syncFolder:onStep:)``, and a temp file that ``removeLeftovers(for:)`` (or
    /// the owner's own sweep of the names it generates) deletes after a crash.
    struct Staged: Sendable {
        let tempPath: FileSystemPath
        let destination: FileSystemPath

        /// Puts the file in place: `rename` (replace) or `link` (no-replace), then, with `syncFolder`, an `fsync`
        /// of the folder. The temp name is gone afterwards, whatever happened.
        /// - Parameter onStep: Told ``Step/renamed`` once the destination names the new bytes.
        func commit(replaceExisting: Bool, syncFolder: Bool = true, onStep: ((Step) -> Void)? = nil) throws
            -> Outcome
        {
            let outcome: Outcome
            if replaceExisting {
                guard tempPath.withCString({ from in destination.withCString { rename(from, $0) } }) == 0 else {
                    let code = errno
                    remove()
                    throw PathCallFailure(operation: "rename", path: destination, code: code)
                }
                outcome = .written
            } else {
                // `link` leaves the temp name behind: removed whatever the outcome.
                defer { remove() }
                if tempPath.withCString({ from in destination.withCString { link(from, $0) } }) == 0 {
                    outcome = .written
                } else if errno == EEXIST {
                    outcome = .alreadyExisted
                } else {
                    throw PathCallFailure(operation: "link", path: destination, code: errno)
                }
            }
            onStep?(.renamed)
            if syncFolder { try AtomicFile.syncFolder(destination.parent) }
            return outcome
        }

        /// Deletes the temp file (a staged file that is not to be put in place).
        func remove() {
            _ = tempPath.withCString { unlink($0) }
        }
    }

    /// Writes the bytes `produce` hands to its writer to a temp file (mode 0600, `O_EXCL`) beside `destination`
    /// and `fsync`s it; `destination` is untouched.
    /// - Parameter produce: Calls the given closure with each run of bytes; an error it throws removes the temp
    ///   file.
    static func stage(
        to destination: FileSystemPath, _ produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> Staged {
        let tempPath = destination.parent.appending(
            FileSystemPath(unchecked: tempName(for: destination.lastComponent.bytes, tag: UUID())))
        let staged = Staged(tempPath: tempPath, destination: destination)
        let descriptor = tempPath.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else { throw PathCallFailure(operation: "open", path: tempPath, code: errno) }
        do {
            defer { close(descriptor) }
            // The mode given to open is filtered by the umask; make 0600 exact.
            guard fchmod(descriptor, 0o600) == 0 else {
                throw PathCallFailure(operation: "fchmod", path: tempPath, code: errno)
            }
            try produce { chunk in try tempPath.writeAll(chunk, to: descriptor) }
            try syncDescriptor(descriptor, path: tempPath)
        } catch {
            staged.remove()
            throw error
        }
        return staged
    }

    /// Deletes temp files a crash left beside `destination`: names ``tempName(for:tag:)`` gives for it, no other.
    static func removeLeftovers(for destination: FileSystemPath) {
        let folder = destination.parent
        let own = destination.lastComponent.bytes
        for name in (try? folder.entryNames()) ?? [] where destinationName(ofTempName: name.bytes) == own {
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
