/// Tuning for a ``FileHealthStore``.
///
/// ```swift
/// var options = FileStoreOptions()
/// options.journalSizeLimit = 8 << 20   // snapshot after every 8 MiB of changes
/// let store = try FileHealthStore(directory: url, configuration: app, options: options)
/// ```
public struct FileStoreOptions: Hashable, Sendable {
    /// How many bytes the journal may grow before the store takes a snapshot and starts a new journal
    /// (64 MiB by default). Smaller means faster reopening and more frequent snapshots; the snapshot is
    /// taken on the thread whose change crossed the limit, after that change's completion was handed to the
    /// callback executor.
    ///
    /// ```swift
    /// FileStoreOptions(journalSizeLimit: 1 << 20).journalSizeLimit   // 1048576
    /// ```
    public var journalSizeLimit: Int
    /// What opening does about damage (``FileStoreRecoveryMode/tolerateTornTail`` by default).
    ///
    /// ```swift
    /// FileStoreOptions(recovery: .repair).recovery   // .repair
    /// ```
    public var recovery: FileStoreRecoveryMode

    /// Options with the defaults, or the given journal size limit and recovery mode.
    ///
    /// ```swift
    /// let options = FileStoreOptions(journalSizeLimit: 16 << 20)
    /// ```
    ///
    /// - Parameters:
    ///   - journalSizeLimit: Bytes of journal before an automatic snapshot; at least 1.
    ///   - recovery: What opening does about damage.
    public init(journalSizeLimit: Int = 64 << 20, recovery: FileStoreRecoveryMode = .tolerateTornTail) {
        self.journalSizeLimit = max(1, journalSizeLimit)
        self.recovery = recovery
    }
}

/// What opening a ``FileHealthStore`` does about damage, after RocksDB's WAL recovery modes.
///
/// ```swift
/// do {
///     store = try FileHealthStore(directory: url, configuration: app)
/// } catch .corruptFile(let name, let offset, _) {
///     // Ask the person, then keep what is readable:
///     store = try FileHealthStore(directory: url, configuration: app, options: FileStoreOptions(recovery: .repair))
///     show(store.recovery.repairs)   // exactly what was skipped
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
