import FlowKit
import Foundation

/// The open journal of a ``FileHealthStore``: appends each mutation as one framed record, flushed before
/// the store applies it; starts new generations for snapshots; holds the directory's lock file.
///
/// A failed write is cut back off the file (so the next record follows the last good one) and reported;
/// the journal stays usable. A failed flush, or a failed cut, leaves the file's tail in doubt, so the
/// journal then refuses everything with ``FileStoreError/unusable(after:)`` — reopening the store reads
/// back exactly what reached the disk.
final class JournalWriter: Sendable {
    private struct State {
        var file: (any StoreFile)?
        var lock: (any StoreFile)?
        var generation: UInt64
        /// Bytes of the journal holding complete records (where the next record goes).
        var length: Int
        /// Where the bytes counted toward the next snapshot begin: after the header of a journal this writer
        /// created, 0 for one taken over at opening (its header's few bytes count).
        var start: Int
        /// The size of the snapshot this journal follows (0 when there is none).
        var snapshotSize: Int
        /// The length at which a snapshot is due.
        var snapshotDue: Int
        /// Whether snapshots are taken when due (``FileHealthStore/takesAutomaticSnapshots``).
        var automaticSnapshots = true
        var failure: FileStoreError?
    }

    let fileSystem: any StoreFileSystem
    let directory: FileSystemPath
    let appBundleIdentifier: String
    /// The store's identity, written into the header of every journal it starts.
    let storeID: UUID
    /// A snapshot is due once the journal's changes reach this many bytes or the size of the snapshot the journal
    /// follows, whichever is larger (a reopened journal that is already this long gets one at the next change),
    /// or grow this much past a failed attempt. Waiting for the snapshot's size keeps the bytes all snapshots
    /// write below twice the store's final snapshot, however large the store grows (a fixed limit rewrites the
    /// whole store every `sizeLimit` bytes: quadratic in its size), and reopening reads at most about twice the
    /// snapshot.
    let sizeLimit: Int
    private let state: LockedState<State>

    /// Takes over an open journal (`file`, complete up to `length`) and the held lock file; `snapshotSize` is the
    /// size in bytes of the snapshot the journal follows (0 for none).
    init(
        fileSystem: any StoreFileSystem, directory: FileSystemPath, appBundleIdentifier: String, storeID: UUID,
        sizeLimit: Int, file: sending any StoreFile, lock: sending any StoreFile, generation: UInt64, length: Int,
        snapshotSize: Int
    ) {
        self.fileSystem = fileSystem
        self.directory = directory
        self.appBundleIdentifier = appBundleIdentifier
        self.storeID = storeID
        self.sizeLimit = sizeLimit
        self.state = LockedState(
            State(
                file: file, lock: lock, generation: generation, length: length, start: 0,
                snapshotSize: snapshotSize, snapshotDue: max(sizeLimit, snapshotSize), failure: nil))
    }

    /// Makes `mutation` durable: written and flushed, or thrown.
    /// A change too large for one record is written as several (see ``MutationCodec/framedRecords(_:recordSize:)``)
    /// in one write and one flush: after a crash the change is there whole or, its last record missing, dropped
    /// as a torn tail.
    func append(_ mutation: StoreMutation) throws(FileStoreError) {
        let record = try MutationCodec.framedRecords(mutation)
        try state.withLock { state throws(FileStoreError) in
            let file = try Self.usableFile(state)
            do throws(FileStoreError) {
                try file.write(record, at: state.length)
            } catch {
                do throws(FileStoreError) {
                    try file.truncate(to: state.length)
                } catch {
                    state.failure = error
                }
                throw error
            }
            do throws(FileStoreError) {
                try file.sync()
            } catch {
                state.failure = error
                throw error
            }
            state.length += record.count
        }
    }

    private static func usableFile(_ state: State) throws(FileStoreError) -> any StoreFile {
        if let failure = state.failure { throw .unusable(after: failure) }
        guard let file = state.file else { throw .closed }
        return file
    }

    /// Whether the journal has grown enough to call for a snapshot, and automatic snapshots are on.
    var snapshotIsDue: Bool {
        state.withLock {
            $0.automaticSnapshots && $0.file != nil && $0.failure == nil && $0.length >= $0.snapshotDue
        }
    }

    /// Whether a snapshot is taken when one is due (``snapshotIsDue``); `true` until turned off.
    var takesAutomaticSnapshots: Bool {
        get { state.withLock { $0.automaticSnapshots } }
        set { state.withLock { $0.automaticSnapshots = newValue } }
    }

    /// After a failed snapshot: wait for another `sizeLimit` bytes before the next attempt.
    func postponeSnapshot() {
        state.withLock { $0.snapshotDue = $0.length + sizeLimit }
    }

    /// Starts the next generation: creates its journal (see ``JournalCreator``) and appends there from now
    /// on. Call with the store's state lock held, so a snapshot taken with it covers exactly the journals
    /// before the new one. A failure before the new file is renamed into place leaves the journal as it
    /// was; a failed directory flush after it makes the journal unusable (the new file may or may not
    /// survive a crash, and it must not sit beside a journal that goes on growing).
    /// - Parameter startSequence: The store's change sequence now (recorded in the new journal's header).
    /// - Returns: The new generation.
    func rotate(startSequence: UInt64) throws(FileStoreError) -> UInt64 {
        try state.withLock { state throws(FileStoreError) in
            _ = try Self.usableFile(state)
            let next = state.generation + 1
            let creator = JournalCreator(
                fileSystem: fileSystem, directory: directory, appBundleIdentifier: appBundleIdentifier,
                storeID: storeID)
            let created = try creator.create(generation: next, startSequence: startSequence)
            do throws(FileStoreError) {
                try fileSystem.syncDirectory(at: directory)
            } catch {
                created.file.close()
                state.failure = error
                throw error
            }
            state.file?.close()
            state.file = created.file
            state.generation = next
            state.length = created.length
            state.start = created.length
            // Until the new snapshot is written, the one before it stands in for its size.
            state.snapshotDue = created.length + max(sizeLimit, state.snapshotSize)
            return next
        }
    }

    /// Records that snapshot `generation` (the one the current journal follows, unless a later rotation
    /// happened) is `size` bytes: its journal's next snapshot waits for that many bytes of changes.
    func snapshotWritten(generation: UInt64, size: Int) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.snapshotSize = size
            state.snapshotDue = state.start + max(sizeLimit, size)
        }
    }

    /// Closes the journal and releases the directory lock; appends then fail with ``FileStoreError/closed``.
    func close() {
        state.withLock { state in
            state.file?.close()
            state.file = nil
            state.lock?.close()
            state.lock = nil
        }
    }
}

/// Creates an empty journal: its magic and header record written to a temporary file, flushed, and renamed
/// into place — so a journal file always starts with a complete header. The caller flushes the directory. The
/// handle returned was renamed with the file: its errors name the journal, not the temporary name.
struct JournalCreator {
    let fileSystem: any StoreFileSystem
    let directory: FileSystemPath
    let appBundleIdentifier: String
    let storeID: UUID

    /// Creates journal `generation`, whose records follow change `startSequence`; a failure removes the
    /// temporary file.
    /// - Returns: The file, open for appending, and its length.
    func create(
        generation: UInt64, startSequence: UInt64
    ) throws(FileStoreError) -> (file: any StoreFile, length: Int) {
        try create(named: StoreLayout.journalName(generation), generation: generation, startSequence: startSequence)
    }

    /// Creates a file in the journal's format named `name` (a journal, or the segmented backend's log).
    func create(
        named name: String, generation: UInt64, startSequence: UInt64
    ) throws(FileStoreError) -> (file: any StoreFile, length: Int) {
        let temporary = directory.appending(StoreLayout.temporaryName(for: name))
        var bytes = StoreLayout.journalMagic
        RecordFrame.append(
            kind: .header,
            payload: StoreFileHeader(
                generation: generation, appBundleIdentifier: appBundleIdentifier, storeID: storeID,
                startSequence: startSequence
            ).encoded(),
            to: &bytes)
        let file = try fileSystem.createFile(at: temporary)
        do throws(FileStoreError) {
            try file.write(bytes, at: 0)
            try file.sync()
            try file.rename(to: directory.appending(name))
        } catch {
            file.close()
            try? fileSystem.removeFile(at: temporary)
            throw error
        }
        return (file, bytes.count)
    }
}
