import Foundation
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private scratch folder in the temp directory, `<prefix><UUID>`, held by an exclusive `flock` on its `LOCK`
/// file for as long as its run lives, and removed by ``remove()``.
///
/// A run killed with `kill -9` cannot remove its folder, so each new one sweeps the folders of its own name
/// pattern whose lock nobody holds any more (the kernel drops a dead process's locks) and counts them, for the
/// caller to report. A folder whose run is alive is never touched, nor is anything not named by this pattern.
///
/// The temp directory is `$TMPDIR` as its bytes (else `/tmp`), so one whose name is not UTF-8 is used where it is.
final class ScratchFolder {
    let path: FileSystemPath
    /// How many folders of interrupted runs this one removed.
    let removedLeftovers: Int
    private let lock: Int32

    init(prefix: String) throws {
        let temporary = RawCommandLine.environmentPath("TMPDIR") ?? FileSystemPath("/tmp")
        removedLeftovers = Self.sweep(temporary, prefix: prefix)
        path = temporary.appending(prefix + UUID().uuidString)
        try path.makeFolders(mode: 0o700)
        lock = path.appending("LOCK").withCString { open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            throw CommandFailure("cannot lock the scratch folder \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Removes the folder and releases its lock.
    func remove() {
        try? path.removeTree()
        close(lock)
    }

    /// Removes `<prefix><UUID>` folders whose `LOCK` nobody holds; returns how many. A name counts only as this
    /// type makes it (the UUID in capitals, as `UUID().uuidString` spells it), and only a folder, not a symbolic
    /// link to one.
    private static func sweep(_ temporary: FileSystemPath, prefix: String) -> Int {
        let names = ((try? temporary.entryNames()) ?? []).compactMap { String(validating: $0.bytes, as: UTF8.self) }
        var removed = 0
        for name in names where isMade(name, prefix: prefix) {
            let folder = temporary.appending(name)
            var status = stat()
            guard folder.withCString({ lstat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFDIR else { continue }
            let descriptor = folder.appending("LOCK").withCString { open($0, O_RDWR | O_CLOEXEC) }
            // No LOCK: a run between creating its folder and locking it, or not ours to judge; leave it.
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            if (try? folder.removeTree()) != nil { removed += 1 }
        }
        return removed
    }

    /// Whether `name` is one this type makes with `prefix`: the prefix, then a UUID as `uuidString` spells it.
    static func isMade(_ name: String, prefix: String) -> Bool {
        guard name.hasPrefix(prefix) else { return false }
        let rest = String(name.dropFirst(prefix.count))
        return UUID(uuidString: rest)?.uuidString == rest
    }
}
