/// One thing a repairing open (``FileStoreRecoveryMode/repair``) could not keep: where the damage is, what it
/// is, and what was lost with it.
///
/// ```swift
/// let repair = store.recovery.repairs[0]
/// print(repair)   // "journal-0000000000000001.hfj at byte 4096: the record's checksum does not match — 37 bytes
///                 //  skipped, 1 change (at least 12 samples) lost"
/// ```
public struct FileStoreRepair: Hashable, Sendable, CustomStringConvertible {
    /// The file, e.g. `journal-0000000000000001.hfj`.
    ///
    /// ```swift
    /// repair.file   // "snapshot-0000000000000002.hfs"
    /// ```
    public let file: String
    /// Where the damage starts in the file.
    ///
    /// ```swift
    /// repair.offset   // 4096
    /// ```
    public let offset: Int
    /// How many bytes were skipped as unreadable (0 when readable records were dropped because they no longer
    /// applied, or a whole file was missing).
    ///
    /// ```swift
    /// repair.skippedBytes   // 37
    /// ```
    public let skippedBytes: Int
    /// What was wrong.
    ///
    /// ```swift
    /// repair.problem   // .payloadChecksumMismatch
    /// ```
    public let problem: FileStoreError.Damage
    /// Changes (saves, deletions, authorization answers) known lost: the readable ones that no longer applied,
    /// and each one whose records were damaged.
    ///
    /// ```swift
    /// repair.changesLost   // 1
    /// ```
    public let changesLost: Int
    /// Samples and deletions known lost; damaged bytes may have held more (see ``skippedBytes``).
    ///
    /// ```swift
    /// repair.samplesLost   // 12
    /// ```
    public let samplesLost: Int

    /// Makes a report (stores make these; tests compare against them).
    ///
    /// ```swift
    /// let repair = FileStoreRepair(file: "journal-0000000000000000.hfj", offset: 8, skippedBytes: 3,
    ///                              problem: .truncated, changesLost: 1, samplesLost: 0)
    /// ```
    /// - Parameters:
    ///   - file: The file.
    ///   - offset: Where the damage starts.
    ///   - skippedBytes: Bytes skipped as unreadable.
    ///   - problem: What was wrong.
    ///   - changesLost: Changes known lost.
    ///   - samplesLost: Samples and deletions known lost.
    public init(
        file: String, offset: Int, skippedBytes: Int, problem: FileStoreError.Damage, changesLost: Int, samplesLost: Int
    ) {
        self.file = file
        self.offset = offset
        self.skippedBytes = skippedBytes
        self.problem = problem
        self.changesLost = changesLost
        self.samplesLost = samplesLost
    }

    /// One line: file, offset, problem, and what was lost (counts only, never health values).
    ///
    /// ```swift
    /// repair.description   // "snapshot-0000000000000002.hfs at byte 0: … — 0 bytes skipped, …"
    /// ```
    public var description: String {
        let changes = changesLost == 1 ? "1 change" : "\(changesLost) changes"
        return "\(file) at byte \(offset): \(problem) — \(skippedBytes) bytes skipped, \(changes) "
            + "(at least \(samplesLost) samples) lost"
    }
}
