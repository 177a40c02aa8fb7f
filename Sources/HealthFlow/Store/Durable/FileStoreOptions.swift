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

    /// Options with the defaults, or the given journal size limit.
    ///
    /// ```swift
    /// let options = FileStoreOptions(journalSizeLimit: 16 << 20)
    /// ```
    ///
    /// - Parameter journalSizeLimit: Bytes of journal before an automatic snapshot; at least 1.
    public init(journalSizeLimit: Int = 64 << 20) {
        self.journalSizeLimit = max(1, journalSizeLimit)
    }
}
