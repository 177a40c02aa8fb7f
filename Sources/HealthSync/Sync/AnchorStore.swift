import Foundation

/// Keeps the ``SyncState`` (per-type anchors and the pending batch ID) in a small JSON file, durably.
///
/// Saving writes a temp file (mode 0600) in the same folder, `fsync`s it, renames it over the state file and
/// `fsync`s the folder: after a crash the file holds either the old state or the new one, never a mix.
/// Loading a missing file gives a fresh state; a corrupt file throws ``SyncStateError/corrupt(path:reason:)``
/// instead of silently starting over (which would re-send, or worse skip, everything).
///
/// ```swift
/// let anchors = AnchorStore(fileURL: support.appendingPathComponent("sync-state.json"))
/// var state = try anchors.load()
/// state.pendingBatchID = batchID
/// try anchors.save(state)                 // before the upload
/// // … 2xx received:
/// state.setAnchor(changes.newAnchor, for: .heartRate)
/// state.pendingBatchID = nil
/// try anchors.save(state)
/// ```
///
/// - Note: `Sendable`: the store holds only its URL. Two processes saving the same file concurrently each
///   write a whole file; the last rename wins.
public struct AnchorStore: Sendable {
    /// The state file.
    ///
    /// ```swift
    /// anchorStore.fileURL.lastPathComponent   // "sync-state.json"
    /// ```
    public let fileURL: URL

    /// Creates a store for the state file at `fileURL` (its folder must exist).
    ///
    /// ```swift
    /// let anchors = AnchorStore(fileURL: URL(fileURLWithPath: "/var/lib/healthflow/sync-state.json"))
    /// ```
    /// - Parameter fileURL: The state file's location.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// Reads the state: fresh when the file does not exist. Removes temp files an interrupted save left behind.
    ///
    /// ```swift
    /// let state = try anchors.load()
    /// ```
    /// - Returns: The saved state, or an empty one.
    /// - Throws: ``SyncStateError/corrupt(path:reason:)`` for an unreadable document,
    ///   ``SyncStateError/unsupportedVersion(path:version:)`` for a newer format, ``SyncStateError/io(operation:path:code:)``.
    public func load() throws(SyncStateError) -> SyncState {
        AtomicFile.removeLeftovers(for: fileURL)
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return SyncState()
        } catch {
            throw .io(operation: "read", path: fileURL.path, code: Self.errnoCode(of: error))
        }
        if let version = Self.formatVersion(in: data), version > SyncState.formatVersion {
            throw .unsupportedVersion(path: fileURL.path, version: version)
        }
        do {
            return try JSONDecoder().decode(SyncState.self, from: data)
        } catch {
            throw .corrupt(path: fileURL.path, reason: Self.reason(for: error))
        }
    }

    /// Replaces the saved state with `state`, atomically and durably.
    ///
    /// ```swift
    /// try anchors.save(state)
    /// ```
    /// - Parameter state: The state to keep.
    /// - Throws: ``SyncStateError/io(operation:path:code:)`` when a system call fails; the old file stays intact.
    public func save(_ state: SyncState) throws(SyncStateError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(state)
        } catch {
            throw .corrupt(path: fileURL.path, reason: "state could not be encoded")
        }
        do {
            _ = try AtomicFile.write(to: fileURL, replaceExisting: true) { sink in
                try data.withUnsafeBytes { try sink($0) }
            }
        } catch let failure as AtomicFileFailure {
            throw .io(operation: failure.operation, path: failure.path, code: failure.code)
        } catch {
            throw .io(operation: "write", path: fileURL.path, code: 0)
        }
    }

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

    private static func errnoCode(of error: any Error) -> Int32 {
        ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { Int32($0.code) } ?? 0
    }
}
