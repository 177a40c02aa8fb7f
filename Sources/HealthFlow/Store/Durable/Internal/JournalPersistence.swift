import FlowKit

/// The persistence of a ``FileHealthStore``: every change is appended to the journal and flushed before the
/// engine applies it, and once the journal's changes pass the larger of the size limit and the last snapshot's
/// size (``JournalWriter/sizeLimit``), or on ``snapshot(of:)``, the state is written to a snapshot and the files
/// it covers are removed.
///
/// - Note: Sendable: the journal has its own lock; snapshots and closing are serialized by `closing`.
final class JournalPersistence: StorePersistence {
    private let journal: JournalWriter
    private let fileSystem: any StoreFileSystem
    private let directory: FileSystemPath
    /// Serializes snapshots and closing, and holds whether the journal was closed: no snapshot is taken after.
    private let closing = LockedState(false)

    init(journal: JournalWriter, fileSystem: any StoreFileSystem, directory: FileSystemPath) {
        self.journal = journal
        self.fileSystem = fileSystem
        self.directory = directory
    }

    /// Whether the journal takes its automatic snapshots (``JournalWriter/takesAutomaticSnapshots``).
    var takesAutomaticSnapshots: Bool {
        get { journal.takesAutomaticSnapshots }
        set { journal.takesAutomaticSnapshots = newValue }
    }

    func record(_ mutation: StoreMutation) throws(FileStoreError) {
        try journal.append(mutation)
    }

    /// Takes a snapshot when the journal has grown past the limit (unless one is being taken); after a
    /// failure, tries again once the journal has grown by the limit once more (nothing is lost meanwhile:
    /// the journals stay).
    func changeFinished(in engine: StoreEngine<JournalPersistence>) {
        guard journal.snapshotIsDue else { return }
        _ = closing.withLockIfAvailable { closed in
            guard !closed, journal.snapshotIsDue else { return }
            do {
                try takeSnapshot(of: engine)
            } catch {
                journal.postponeSnapshot()
            }
        }
    }

    /// Starts a new journal generation and snapshots `engine`'s state as of that moment (copied under the
    /// engine's lock, written without it), then removes the files the snapshot covers.
    /// - Throws: ``FileStoreError``; the files on disk still hold every change (the journals stay).
    func snapshot(of engine: StoreEngine<JournalPersistence>) throws(FileStoreError) {
        try closing.withLock { closed throws(FileStoreError) in
            guard !closed else { throw .closed }
            try takeSnapshot(of: engine)
        }
    }

    /// Closes the journal and releases the directory's lock; later changes fail with ``FileStoreError/closed``.
    func close() {
        closing.withLock { closed in
            journal.close()
            closed = true
        }
    }

    private func takeSnapshot(of engine: StoreEngine<JournalPersistence>) throws(FileStoreError) {
        let (generation, image) = try engine.withLockedState { state throws(FileStoreError) in
            (try journal.rotate(startSequence: state.sequence), StoreImage(state))
        }
        let writer = SnapshotWriter(fileSystem: fileSystem, directory: directory)
        let size = try writer.write(image, generation: generation)
        journal.snapshotWritten(generation: generation, size: size)
        writer.removeCovered(before: generation)
    }
}
