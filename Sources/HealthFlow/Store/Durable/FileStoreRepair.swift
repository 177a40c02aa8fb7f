/// One thing a repairing open (``FileStoreRecoveryMode/repair``) could not keep: where the damage is, what it
/// is, and what was lost with it.
public struct FileStoreRepair: Hashable, Sendable, CustomStringConvertible {
    /// The file, e.g. `journal-0000000000000001.hfj`.
    public let file: String
    /// Where the damage starts in the file.
    public let offset: Int
    /// How many bytes were skipped as unreadable (0 when readable records were dropped because they no longer
    /// applied, or a whole file was missing).
    public let skippedBytes: Int
    /// What was wrong.
    public let problem: FileStoreError.Damage
    /// Changes (saves, deletions, authorization answers) known lost: the readable ones that no longer applied,
    /// and each one whose records were damaged.
    public let changesLost: Int
    /// Samples and deletions known lost; damaged bytes may have held more (see ``skippedBytes``).
    public let samplesLost: Int

    /// Makes a report (stores make these; tests compare against them).
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
    public var description: String {
        let changes = changesLost == 1 ? "1 change" : "\(changesLost) changes"
        return "\(file) at byte \(offset): \(problem) — \(skippedBytes) bytes skipped, \(changes) "
            + "(at least \(samplesLost) samples) lost"
    }
}
