/// Tuning for a ``FileHealthStore``.
public struct FileStoreOptions: Hashable, Sendable {
    /// How many bytes of changes the journal takes at least before the store takes a snapshot and starts a new
    /// journal (64 MiB by default). A larger store waits longer: the next snapshot is due once the journal's
    /// changes reach this limit or the size of the last snapshot, whichever is larger — so snapshots of a
    /// growing store write less than twice its final size in all (with a fixed limit, a 5 GB import would
    /// rewrite the whole store every 64 MiB), and reopening reads at most about twice the snapshot's bytes.
    /// Smaller means faster reopening of a small store and more frequent snapshots; the snapshot is taken on the
    /// thread whose change crossed the limit, after that change's completion was handed to the callback
    /// executor.
    public var journalSizeLimit: Int
    /// What opening does about damage (``FileStoreRecoveryMode/tolerateTornTail`` by default).
    public var recovery: FileStoreRecoveryMode

    /// Options with the defaults, or the given journal size limit and recovery mode.
    ///
    /// - Parameters:
    ///   - journalSizeLimit: Bytes of journal before an automatic snapshot, at the least (the last snapshot's
    ///     size when that is larger); at least 1.
    ///   - recovery: What opening does about damage.
    public init(journalSizeLimit: Int = 64 << 20, recovery: FileStoreRecoveryMode = .tolerateTornTail) {
        self.journalSizeLimit = max(1, journalSizeLimit)
        self.recovery = recovery
    }
}

/// What opening a ``FileHealthStore`` does about damage, after RocksDB's WAL recovery modes.
///
/// Opening in the default mode stops at damage and changes nothing;
/// ``FileHealthStore/assessDamage(directory:configuration:)`` tells what a repair would keep and lose, so the
/// person can choose before anything is moved:
///
/// ```swift
/// let store: FileHealthStore
/// do {
///     store = try FileHealthStore(directory: directory, configuration: app)
/// } catch FileStoreError.corruptFile {
///     let assessment = try FileHealthStore.assessDamage(directory: directory, configuration: app)
///     print("a repair keeps \(assessment.keptObjects), loses at least \(assessment.samplesLost) samples")
///     store = try FileHealthStore(
///         directory: directory, configuration: app, options: FileStoreOptions(recovery: .repair))
///     for repair in store.recovery.repairs { print(repair) }  // exactly what was skipped
/// }
/// ```
public enum FileStoreRecoveryMode: Hashable, Sendable {
    /// Drop only what an interrupted append leaves (a torn last record, reported in
    /// ``FileStoreRecovery/tornTail``); any other damage stops opening with ``FileStoreError``, every byte kept.
    case tolerateTornTail
    /// Keep everything readable: skip damaged bytes and the changes that no longer apply, report each in
    /// ``FileStoreRecovery/repairs``, write the recovered state as a new snapshot and journal, and move every
    /// damaged file into the store's `damaged/` folder (never delete it).
    case repair
}
