import Foundation

/// A fresh folder under the system temp directory for one benchmark's files, removed by ``remove()``.
public struct ScratchFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates the folder (mode 0700).
    ///
    /// - Parameter prefix: A word that names the benchmark in the folder name.
    /// - Throws: The file system's error.
    public init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthflow-bench-\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Removes the folder and everything in it (errors ignored: it is scratch space).
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
