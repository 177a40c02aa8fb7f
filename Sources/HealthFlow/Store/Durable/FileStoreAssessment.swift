/// What a repairing open of a damaged store would keep and lose, found without changing anything
/// (``FileHealthStore/assessDamage(directory:configuration:)``): the numbers to show before asking for a repair.
public struct FileStoreAssessment: Hashable, Sendable {
    /// What a repair would skip, as ``FileStoreRecovery/repairs`` would report it.
    public let repairs: [FileStoreRepair]
    /// How many live samples (correlation members included) a repair would keep.
    public let keptObjects: Int

    /// Samples and deletions a repair would lose, as far as they can be counted (damaged bytes may have held more).
    public var samplesLost: Int { repairs.reduce(0) { $0 + $1.samplesLost } }

    /// Makes an assessment (stores make these; tests compare against them).
    public init(repairs: [FileStoreRepair], keptObjects: Int) {
        self.repairs = repairs
        self.keptObjects = keptObjects
    }
}
