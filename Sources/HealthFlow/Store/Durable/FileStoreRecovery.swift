/// What opening a ``FileHealthStore`` found and did: the snapshot it loaded, the journal records it
/// replayed, a torn last record it dropped, and leftover files it removed.
///
/// A crash while a record is being written leaves part of it at the end of the journal. That record was
/// never acknowledged (completion handlers run only after the record is flushed), so opening drops it: it
/// copies the record's bytes into the store's `damaged/` folder (``TornTail/keptAs``), truncates the journal
/// to the last complete record, and reports it here. Damage anywhere else is an
/// error (``FileStoreError/corruptFile(name:offset:problem:)``), never silently skipped.
///
/// ```swift
/// let store = try FileHealthStore(directory: directory, configuration: app)
/// if let torn = store.recovery.tornTail {
///     print("dropped \(torn.length) bytes of an unfinished write at \(torn.file):\(torn.offset)")
/// }
/// ```
public struct FileStoreRecovery: Hashable, Sendable {
    /// An incomplete or damaged last record, dropped when the store opened.
    public struct TornTail: Hashable, Sendable {
        /// The journal's file name, e.g. `journal-0000000000000003.hfj`.
        public let file: String
        /// Where the dropped bytes began (the journal now ends here).
        public let offset: Int
        /// How many bytes were dropped.
        public let length: Int
        /// What was wrong with them: ``FileStoreError/Damage/truncated`` for a write cut short, a checksum
        /// mismatch for a last record whose bytes did not all reach the disk (or zeros the file system left).
        public let problem: FileStoreError.Damage

        /// Where the dropped bytes were copied before the journal was cut, relative to the store directory
        /// (`damaged/journal-0000000000000003.hfj.torn.20261127T043411Z`); `nil` only in a report made before they
        /// were copied.
        public let keptAs: String?

        /// Makes a report (stores make these; tests compare against them).
        public init(file: String, offset: Int, length: Int, problem: FileStoreError.Damage, keptAs: String? = nil) {
            self.file = file
            self.offset = offset
            self.length = length
            self.problem = problem
            self.keptAs = keptAs
        }

        /// This report with the place its bytes were copied to.
        func kept(as path: String) -> TornTail {
            TornTail(file: file, offset: offset, length: length, problem: problem, keptAs: path)
        }
    }

    /// The generation of the snapshot loaded, or `nil` when the store started from its journals alone.
    public let snapshotGeneration: UInt64?
    /// The journal generations replayed, in order.
    public let journalGenerations: [UInt64]
    /// How many journal records (saves, deletions, authorization answers) were replayed on top of the
    /// snapshot.
    public let replayedRecords: Int
    /// The dropped last record, if the previous run stopped while writing one.
    public let tornTail: TornTail?
    /// Files removed as leftovers: temporary files of an unfinished snapshot or rotation, and snapshots and
    /// journals that a newer snapshot covers.
    public let removedFiles: [String]
    /// What a repairing open (``FileStoreRecoveryMode/repair``) skipped, in the order found; empty otherwise.
    public let repairs: [FileStoreRepair]
    /// Where a repairing open moved the damaged files, relative to the store directory (e.g.
    /// `damaged/journal-0000000000000002.hfj.20261125T130411Z`).
    public let movedAside: [String]

    /// Makes a report (stores make these; tests compare against them).
    public init(
        snapshotGeneration: UInt64?, journalGenerations: [UInt64], replayedRecords: Int, tornTail: TornTail?,
        removedFiles: [String], repairs: [FileStoreRepair] = [], movedAside: [String] = []
    ) {
        self.repairs = repairs
        self.movedAside = movedAside
        self.snapshotGeneration = snapshotGeneration
        self.journalGenerations = journalGenerations
        self.replayedRecords = replayedRecords
        self.tornTail = tornTail
        self.removedFiles = removedFiles
    }
}
