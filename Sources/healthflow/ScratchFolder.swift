import Foundation

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
final class ScratchFolder {
    let url: URL
    /// How many folders of interrupted runs this one removed.
    let removedLeftovers: Int
    private let lock: Int32

    init(prefix: String) throws {
        let temporary = FileManager.default.temporaryDirectory
        removedLeftovers = Self.sweep(temporary, prefix: prefix)
        url = temporary.appendingPathComponent(prefix + UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        lock = open(url.appendingPathComponent("LOCK").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            throw ArgumentError("cannot lock the scratch folder \(url.path): \(String(cString: strerror(code)))")
        }
    }

    /// Removes the folder and releases its lock.
    func remove() {
        try? FileManager.default.removeItem(at: url)
        close(lock)
    }

    /// Removes `<prefix><UUID>` folders whose `LOCK` nobody holds; returns how many.
    private static func sweep(_ temporary: URL, prefix: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(prefix) && UUID(uuidString: String(name.dropFirst(prefix.count))) != nil
        {
            let folder = temporary.appendingPathComponent(name, isDirectory: true)
            let descriptor = open(folder.appendingPathComponent("LOCK").path, O_RDWR | O_CLOEXEC)
            // No LOCK: a run between creating its folder and locking it, or not ours to judge; leave it.
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            if (try? FileManager.default.removeItem(at: folder)) != nil { removed += 1 }
        }
        return removed
    }
}
