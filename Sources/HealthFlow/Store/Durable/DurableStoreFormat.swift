#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which durable store a folder holds, told by the names of its files alone (no file is opened): the journal
/// store (``FileHealthStore``: `journal-…` and `snapshot-…` files) or the disk-backed one
/// (``SegmentedHealthStoreBackend``: `segment-log-…` logs and `segment-…` files). Only the names each store
/// generates count, spelled as it spells them; anything else in the folder is not looked at.
public enum DurableStoreFormat: Sendable, Hashable, CustomStringConvertible {
    /// ``FileHealthStore``'s journal and snapshots: every sample in memory once opened.
    case journal
    /// ``SegmentedHealthStoreBackend``'s segments and log: bounded memory whatever the store holds.
    case segments

    /// The format of the store in `directory`, or `nil` when it holds neither's files (a new or empty folder, or
    /// none at all).
    /// - Throws: ``FileStoreError/corruptFile(name:offset:problem:)`` (`.inconsistent`) naming a file of each
    ///   format when the folder holds both: no store makes that, so neither is opened; or the file system's error
    ///   listing the folder (other than its absence).
    /// - Complexity: O(n) for n names in the folder.
    public static func of(directoryPath directory: FileSystemPath) throws(FileStoreError) -> DurableStoreFormat? {
        let names: [String]
        do throws(FileStoreError) {
            names = try PosixFileSystem().contentsOfDirectory(at: directory)
        } catch {
            if case .io(_, _, let code) = error, code == ENOENT { return nil }
            throw error
        }
        return try of(names: names)
    }

    /// The format `names` (a folder's listing) show, as ``of(directoryPath:)`` tells it.
    static func of(names: [String]) throws(FileStoreError) -> DurableStoreFormat? {
        let journal = names.filter(isJournalName).min()
        let segments = names.filter(isSegmentsName).min()
        switch (journal, segments) {
        case (nil, nil): return nil
        case (.some, nil): return .journal
        case (nil, .some): return .segments
        case (.some(let journal), .some(let segments)):
            throw .corruptFile(
                name: segments, offset: 0,
                problem: .inconsistent("the folder also holds \(journal), a file of the journal store's format"))
        }
    }

    /// Stops a store of this format opening `directory`, whose listing is `names`, when they show a store of the
    /// other format (or both): each store reads, writes and removes only its own files, so it must not make its
    /// own beside another's.
    /// - Throws: ``FileStoreError/otherFormat(path:holds:)``, or ``of(names:)``'s error.
    func requireNoOther(in names: [String], directory: FileSystemPath) throws(FileStoreError) {
        if let found = try Self.of(names: names), found != self {
            throw .otherFormat(path: directory.description, holds: found)
        }
    }

    /// The files a store of this format is made of, in words.
    public var description: String {
        switch self {
        case .journal: "journal + snapshots"
        case .segments: "segments + log"
        }
    }

    private static func isJournalName(_ name: String) -> Bool {
        switch StoreLayout.classify(name) {
        case .journal, .snapshot: true
        case .temporary, .other: false
        }
    }

    private static func isSegmentsName(_ name: String) -> Bool {
        SegmentLog.generation(in: name) != nil || SegmentedBackendState.segmentType(in: name) != nil
            || name == SegmentHistory.fileName || name == SegmentAuthorization.fileName
    }
}
