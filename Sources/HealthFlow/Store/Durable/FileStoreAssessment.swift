/// What a repairing open of a damaged store would keep and lose, found without changing anything
/// (``FileHealthStore/assessDamage(directory:configuration:)``): the numbers to show before asking for a repair.
///
/// ```swift
/// let assessment = try FileHealthStore.assessDamage(directory: url, configuration: app)
/// print("a repair keeps \(assessment.keptObjects) samples; it loses: \(assessment.repairs)")
/// ```
public struct FileStoreAssessment: Hashable, Sendable {
    /// What a repair would skip, as ``FileStoreRecovery/repairs`` would report it.
    ///
    /// ```swift
    /// assessment.repairs.count   // 1
    /// ```
    public let repairs: [FileStoreRepair]
    /// How many live samples (correlation members included) a repair would keep.
    ///
    /// ```swift
    /// assessment.keptObjects   // 126_212
    /// ```
    public let keptObjects: Int

    /// Samples and deletions a repair would lose, as far as they can be counted (damaged bytes may have held more).
    ///
    /// ```swift
    /// assessment.samplesLost   // 4_835
    /// ```
    public var samplesLost: Int { repairs.reduce(0) { $0 + $1.samplesLost } }

    /// Makes an assessment (stores make these; tests compare against them).
    ///
    /// ```swift
    /// let clean = FileStoreAssessment(repairs: [], keptObjects: 3)
    /// ```
    /// - Parameters:
    ///   - repairs: What a repair would skip.
    ///   - keptObjects: Live samples a repair would keep.
    public init(repairs: [FileStoreRepair], keptObjects: Int) {
        self.repairs = repairs
        self.keptObjects = keptObjects
    }
}
