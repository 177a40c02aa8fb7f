import Foundation

/// A fresh folder under the system temp directory for one benchmark's files, removed by ``remove()``.
///
/// ```swift
/// let folder = try ScratchFolder(prefix: "store")
/// defer { folder.remove() }
/// let store = try FileHealthStore(directory: folder.url.appendingPathComponent("db"), configuration: app)
/// ```
public struct ScratchFolder: Sendable {
    /// The folder.
    ///
    /// ```swift
    /// folder.url.path   // "/tmp/healthflow-bench-store-…"
    /// ```
    public let url: URL

    /// Creates the folder (mode 0700).
    ///
    /// ```swift
    /// let folder = try ScratchFolder(prefix: "sync")
    /// ```
    /// - Parameter prefix: A word that names the benchmark in the folder name.
    /// - Throws: The file system's error.
    public init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthflow-bench-\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Removes the folder and everything in it (errors ignored: it is scratch space).
    ///
    /// ```swift
    /// folder.remove()
    /// ```
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
