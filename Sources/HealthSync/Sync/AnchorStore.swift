import Foundation
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps the ``SyncState`` (per-type anchors and the pending batch) durably: in a small JSON file, and, while a
/// ``SyncEngine`` run is under way, in the pending batch files beside it.
///
/// Saving writes a temp file (mode 0600) in the same folder, `fsync`s it, renames it over the state file and
/// `fsync`s the folder: after a crash the file holds either the old state or the new one, never a mix.
/// A sync run whose pending bodies are kept in the state file's folder (the default) records each batch in its
/// body's own file instead — `<state file name>.pending-<sequence>-<batch ID>.multipart`, the body followed by
/// the state that makes it pending — and saves the state file at the end of the run. ``load()`` gives the true
/// state either way: the newest pending batch file that is newer than the state file (by the sequence both
/// record), or else the state file.
///
/// Loading a missing file gives a fresh state; a corrupt file (the state file, or the newest pending batch file)
/// throws ``SyncStateError/corrupt(path:reason:)`` instead of silently starting over (which would re-send, or
/// worse skip, everything).
///
/// The file is named by its bytes (``path``): a state file in a folder whose name is not UTF-8 is read and
/// written there, never in a folder whose name has U+FFFD in their place.
///
/// - Note: `Sendable`: the store holds only its path. Two processes saving the same file concurrently each
///   write a whole file; the last rename wins.
public struct AnchorStore: Sendable {
    /// The state file as a URL: the one the store was made with, or ``path`` as a URL — which, for a path that
    /// is not UTF-8, shows U+FFFD in place of the bytes a URL cannot hold (``path`` names the file).
    public let fileURL: URL
    /// The state file, as the bytes every file call is given.
    public let path: FileSystemPath

    /// Creates a store for the state file at `fileURL` (its folder must exist).
    ///
    /// - Parameter fileURL: The state file's location.
    public init(fileURL: URL) {
        self.fileURL = fileURL
        self.path = FileSystemPath(fileURL)
    }

    /// Creates a store for the state file at `path`, byte for byte (its folder must exist): the way to keep the
    /// state in a folder whose name is not UTF-8.
    ///
    /// - Parameter path: The state file's location.
    public init(path: FileSystemPath) {
        self.fileURL = path.urlOrDisplayForm
        self.path = path
    }

    /// Reads the state: the newest pending batch file newer than the state file, or the state file, or a fresh
    /// state when there is neither. Removes temp files an interrupted save left behind.
    ///
    /// - Returns: The saved state, or an empty one.
    /// - Throws: ``SyncStateError/corrupt(path:reason:)`` for an unreadable document (the state file, or the
    ///   newest pending batch file), ``SyncStateError/unsupportedVersion(path:version:)`` for a newer format,
    ///   ``SyncStateError/io(operation:path:code:)``.
    public func load() throws(SyncStateError) -> SyncState {
        try loadStored().state
    }

    /// Replaces the saved state with `state`, atomically and durably: it is what ``load()`` gives from then on.
    ///
    /// - Parameter state: The state to keep.
    /// - Throws: ``SyncStateError/io(operation:path:code:)`` when a system call fails; the old file stays intact.
    public func save(_ state: SyncState) throws(SyncStateError) {
        // The state file must rank above every pending batch file beside it, or load() would prefer the file.
        let pending = try PendingBatchFile.newestFile(in: path.parent, prefix: pendingFilePrefixBytes)?.1 ?? 0
        let file = (try? loadFile().sequence) ?? 0
        try save(StoredSyncState(state: state, sequence: max(pending, file)))
    }

    /// What ``load()`` gives, with its sequence.
    func loadStored() throws(SyncStateError) -> StoredSyncState {
        let file = try loadFile()
        let newer = try PendingBatchFile.newest(in: path.parent, prefix: pendingFilePrefixBytes, above: file.sequence)
        return newer ?? file
    }

    /// Writes `stored` as the state file, atomically and durably.
    /// - Parameter onStep: Told each step of the write (crash tests stop there).
    func save(_ stored: StoredSyncState, onStep: ((AtomicFile.Step) -> Void)? = nil) throws(SyncStateError) {
        let data: Data
        do {
            data = try stored.encoded()
        } catch {
            throw .corrupt(path: path.description, reason: "state could not be encoded")
        }
        do {
            _ = try AtomicFile.write(to: path, replaceExisting: true, onStep: onStep) { sink in
                try data.withUnsafeBytes { try sink($0) }
            }
        } catch let failure as PathCallFailure {
            throw .io(operation: failure.operation, path: failure.path, code: failure.code)
        } catch {
            throw .io(operation: "write", path: path.description, code: 0)
        }
    }

    /// The start of every pending batch file's name: the state file's name (its display form when not UTF-8, as
    /// the state records the body's name as text) and `.pending-`.
    var pendingFilePrefix: String { path.lastComponent.description + ".pending-" }

    private var pendingFilePrefixBytes: [UInt8] { Array(pendingFilePrefix.utf8) }

    /// The state file alone: fresh (sequence 0) when it does not exist.
    private func loadFile() throws(SyncStateError) -> StoredSyncState {
        AtomicFile.removeLeftovers(for: path)
        var info = stat()
        if path.withCString({ stat($0, &info) }) == 0, Int64(info.st_size) > Self.largestStateFile {
            // Read whole, a damaged or substituted file this large would be one allocation of its size.
            throw .corrupt(
                path: path.description,
                reason: "\(info.st_size) bytes, more than a state file holds (\(Self.largestStateFile))")
        }
        let data: Data
        do throws(PathCallFailure) {
            data = Data(try path.readContents())
        } catch  where error.operation == "open" && error.code == ENOENT {
            return StoredSyncState(state: SyncState(), sequence: 0)
        } catch {
            throw .io(operation: error.operation, path: error.path, code: error.code)
        }
        if let version = Self.formatVersion(in: data), version > SyncState.formatVersion {
            throw .unsupportedVersion(path: path.description, version: version)
        }
        do {
            return try JSONDecoder().decode(StoredSyncState.self, from: data)
        } catch {
            throw .corrupt(path: path.description, reason: Self.reason(for: error))
        }
    }

    /// The largest state file ``load()`` reads: 16 MiB (a state records a few anchors and one pending batch, a
    /// few KB).
    static let largestStateFile: Int64 = 16 << 20

    private static func formatVersion(in data: Data) -> Int? {
        let object = try? JSONSerialization.jsonObject(with: data)
        return (object as? [String: Any])?["formatVersion"] as? Int
    }

    private static func reason(for error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "not a sync state document"
        }
    }
}
