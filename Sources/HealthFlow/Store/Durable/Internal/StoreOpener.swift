import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens a store directory: takes its lock, loads the newest snapshot, replays the journals after it,
/// drops a torn last record, removes leftovers, and hands back the state with the journal to append to.
///
/// Files a snapshot covers stay until the snapshot is complete, so after a crash at any step of a snapshot
/// or a rotation one of these holds, and each opens to the same state:
/// - no new snapshot: the previous snapshot (or none) plus every journal since;
/// - the new snapshot and its journal (the older files are leftovers);
/// - the new snapshot without its journal (created here, empty).
struct StoreOpener {
    let fileSystem: any StoreFileSystem
    let directory: FileSystemPath
    let appBundleIdentifier: String
    let sizeLimit: Int
    let mode: FileStoreRecoveryMode

    /// What opening produced.
    struct Opened {
        let state: StoreState
        let journal: JournalWriter
        let recovery: FileStoreRecovery
        /// The files predate store identities: the identity in `state` is new and must be written (a snapshot
        /// does) before anyone relies on it.
        let needsIdentity: Bool
    }

    func open() throws(FileStoreError) -> Opened {
        try fileSystem.makeDirectory(at: directory)
        let lock = try fileSystem.lockFile(at: path(StoreLayout.lockName))
        let loaded: Loaded
        do throws(FileStoreError) {
            loaded = try load()
        } catch {
            lock.close()
            throw error
        }
        let journal = JournalWriter(
            fileSystem: fileSystem, directory: directory, appBundleIdentifier: appBundleIdentifier,
            storeID: loaded.state.storeID, sizeLimit: sizeLimit, file: loaded.file, lock: lock,
            generation: loaded.generation, length: loaded.length, snapshotSize: loaded.snapshotSize)
        return Opened(
            state: loaded.state, journal: journal, recovery: loaded.recovery, needsIdentity: loaded.needsIdentity)
    }

    /// What loading produced: the state, the journal to append to (open, complete up to `length`), and the
    /// report.
    private struct Loaded {
        let state: StoreState
        let file: any StoreFile
        let generation: UInt64
        let length: Int
        /// The size in bytes of the snapshot the journal follows (0 for none).
        let snapshotSize: Int
        let recovery: FileStoreRecovery
        let needsIdentity: Bool
    }

    private func path(_ name: String) -> FileSystemPath {
        directory.appending(name)
    }

    /// Removes a leftover temporary file; a directory that happens to carry such a name is not the store's and
    /// stays (`unlink` never removes a directory). Returns whether a file was removed.
    private func removeTemporary(_ name: String) throws(FileStoreError) -> Bool {
        do throws(FileStoreError) {
            try fileSystem.removeFile(at: path(name))
            return true
        } catch .io(_, _, let code) where code == EISDIR || code == EPERM {
            return false
        }
    }

    /// What a repairing open would find, with nothing written: the lock is taken and released, no file is
    /// created, cut, moved or removed.
    func assess() throws(FileStoreError) -> FileStoreAssessment {
        let lock = try fileSystem.lockFile(at: path(StoreLayout.lockName))
        defer { lock.close() }
        let read = try read(repairing: true)
        return FileStoreAssessment(repairs: read.repairs, keptObjects: read.state.locations.count)
    }

    /// What reading the files found (see ``read(repairing:)``).
    private struct Read {
        var state: StoreState
        var identity: StoreIdentitySource?
        var journals: [UInt64]
        var snapshots: [UInt64]
        var temporaries: [String]
        var live: [UInt64]
        var replayed: Int
        var tail: (generation: UInt64, length: Int, torn: FileStoreRecovery.TornTail?)?
        var repairs: [FileStoreRepair]
        var damaged: [String]
        /// The size in bytes of the snapshot read (0 for none).
        var snapshotSize: Int
        var snapshot: UInt64? { snapshots.last }
    }

    /// Reads the newest snapshot and the journals after it into a state, changing nothing on disk.
    private func read(repairing: Bool) throws(FileStoreError) -> Read {
        var journals: [UInt64] = []
        var snapshots: [UInt64] = []
        var temporaries: [String] = []
        let names = try fileSystem.contentsOfDirectory(at: directory)
        try DurableStoreFormat.journal.requireNoOther(in: names, directory: directory)
        for name in names {
            switch StoreLayout.classify(name) {
            case .journal(let generation): journals.append(generation)
            case .snapshot(let generation): snapshots.append(generation)
            case .temporary: temporaries.append(name)
            case .other: break
            }
        }
        journals.sort()
        snapshots.sort()
        var repairs: [FileStoreRepair] = []
        var damaged: [String] = []
        let snapshot = snapshots.last
        let base = snapshot ?? 0
        var state = StoreState(appBundleIdentifier: appBundleIdentifier)
        // Where the identity in `state` came from: nil before any file was read.
        var identity: StoreIdentitySource?
        var snapshotSize = 0
        if let snapshot {
            let read = try SnapshotReader(
                fileSystem: fileSystem, directory: directory, appBundleIdentifier: appBundleIdentifier,
                repairing: repairing
            ).read(generation: snapshot, legacyStoreID: state.storeID)
            state = read.state
            snapshotSize = read.size
            identity = read.header.map { $0.storeID == nil ? .legacy : .recorded }
            if !read.repairs.isEmpty {
                repairs += read.repairs
                damaged.append(StoreLayout.snapshotName(snapshot))
            }
        }

        let live = journals.filter { $0 >= base }
        // A snapshot's journal is created (and flushed) before the snapshot is written, and every journal but the
        // newest was complete when the next began: a gap means changes may be gone.
        var missing: [UInt64] = []
        var expected = base
        for generation in live {
            if generation != expected { missing.append(expected) }
            expected = generation + 1
        }
        if live.isEmpty, snapshot != nil, identity == .recorded { missing.append(base) }
        if let first = missing.first, !repairing { throw .missingJournal(generation: first) }
        for generation in missing {
            repairs.append(
                FileStoreRepair(
                    file: StoreLayout.journalName(generation), offset: 0, skippedBytes: 0, problem: .missingFile,
                    changesLost: 0, samplesLost: 0))
        }

        var replayed = 0
        var tail: (generation: UInt64, length: Int, torn: FileStoreRecovery.TornTail?)?
        for (position, generation) in live.enumerated() {
            let name = StoreLayout.journalName(generation)
            let outcome = try JournalReplay(
                name: name, bytes: try fileSystem.readFile(at: path(name)), generation: generation,
                appBundleIdentifier: appBundleIdentifier, isLast: position == live.count - 1, repairing: repairing
            ).run(into: &state, identity: &identity)
            replayed += outcome.changes
            if !outcome.repairs.isEmpty {
                repairs += outcome.repairs
                damaged.append(name)
            }
            tail = (generation, outcome.length, outcome.torn)
        }
        return Read(
            state: state, identity: identity, journals: journals, snapshots: snapshots, temporaries: temporaries,
            live: live, replayed: replayed, tail: tail, repairs: repairs, damaged: damaged, snapshotSize: snapshotSize)
    }

    private func load() throws(FileStoreError) -> Loaded {
        let read = try read(repairing: mode == .repair)
        let (state, identity, journals, snapshots, live) = (
            read.state, read.identity, read.journals, read.snapshots, read.live
        )
        let (snapshot, base, replayed, tail, repairs) = (
            read.snapshot, read.snapshot ?? 0, read.replayed, read.tail, read.repairs
        )

        // Leftovers: unfinished temporary files, and files the loaded snapshot covers.
        var removed: [String] = []
        for name in read.temporaries where try removeTemporary(name) { removed.append(name) }
        let covered =
            journals.filter { $0 < base }.map(StoreLayout.journalName)
            + snapshots.filter { $0 < base }.map(StoreLayout.snapshotName)
        for name in covered { try fileSystem.removeFile(at: path(name)) }
        removed = (removed + covered).sorted()
        if !removed.isEmpty { try fileSystem.syncDirectory(at: directory) }

        var recovery = FileStoreRecovery(
            snapshotGeneration: snapshot, journalGenerations: live, replayedRecords: replayed,
            tornTail: tail?.torn, removedFiles: removed)
        if !repairs.isEmpty {
            return try rebuild(
                state, after: max(live.last ?? base, base), damaged: read.damaged, recovery: recovery, repairs: repairs)
        }
        if let tail {
            if let torn = tail.torn {
                recovery = FileStoreRecovery(
                    snapshotGeneration: snapshot, journalGenerations: live, replayedRecords: replayed,
                    tornTail: torn.kept(as: try keep(torn)), removedFiles: removed)
            }
            let file = try fileSystem.openFile(at: path(StoreLayout.journalName(tail.generation)))
            if tail.torn != nil {
                do throws(FileStoreError) {
                    try file.truncate(to: tail.length)
                    try file.sync()
                } catch {
                    file.close()
                    throw error
                }
            }
            return Loaded(
                state: state, file: file, generation: tail.generation, length: tail.length,
                snapshotSize: read.snapshotSize, recovery: recovery, needsIdentity: identity == .legacy)
        }
        let created = try createJournal(generation: base, for: state)
        recovery = FileStoreRecovery(
            snapshotGeneration: snapshot, journalGenerations: live, replayedRecords: replayed, tornTail: nil,
            removedFiles: removed)
        return Loaded(
            state: state, file: created.file, generation: base, length: created.length,
            snapshotSize: read.snapshotSize, recovery: recovery, needsIdentity: identity == .legacy)
    }

    /// Creates journal `generation` for `state` and flushes the directory.
    private func createJournal(
        generation: UInt64, for state: StoreState
    ) throws(FileStoreError) -> (file: any StoreFile, length: Int) {
        let creator = JournalCreator(
            fileSystem: fileSystem, directory: directory, appBundleIdentifier: appBundleIdentifier,
            storeID: state.storeID)
        let created = try creator.create(generation: generation, startSequence: state.sequence)
        do throws(FileStoreError) {
            try fileSystem.syncDirectory(at: directory)
        } catch {
            created.file.close()
            throw error
        }
        return created
    }

    /// After a repairing open found damage: the recovered state becomes the next generation's snapshot (with an
    /// empty journal), so the store no longer needs any damaged file; those are moved into `damaged/`, and the
    /// files the new snapshot covers are removed. A failure before the snapshot is in place leaves every file
    /// where it was.
    private func rebuild(
        _ state: StoreState, after newest: UInt64, damaged: [String], recovery: FileStoreRecovery,
        repairs: [FileStoreRepair]
    ) throws(FileStoreError) -> Loaded {
        let generation = newest + 1
        let created = try createJournal(generation: generation, for: state)
        let moved: [String]
        let snapshotSize: Int
        do throws(FileStoreError) {
            let writer = SnapshotWriter(fileSystem: fileSystem, directory: directory)
            snapshotSize = try writer.write(StoreImage(state), generation: generation)
            moved = try moveAside(damaged)
            writer.removeCovered(before: generation)
        } catch {
            created.file.close()
            throw error
        }
        let report = FileStoreRecovery(
            snapshotGeneration: recovery.snapshotGeneration, journalGenerations: recovery.journalGenerations,
            replayedRecords: recovery.replayedRecords, tornTail: recovery.tornTail, removedFiles: recovery.removedFiles,
            repairs: repairs, movedAside: moved)
        return Loaded(
            state: state, file: created.file, generation: generation, length: created.length,
            snapshotSize: snapshotSize, recovery: report, needsIdentity: false)
    }

    /// Moves files into the store's `damaged/` folder (``DamagedCopy/moveAside(_:in:fileSystem:)``). Returns the
    /// new paths relative to the store.
    private func moveAside(_ names: [String]) throws(FileStoreError) -> [String] {
        try DamagedCopy.moveAside(names, in: directory, fileSystem: fileSystem)
    }

    /// Keeps the bytes of a torn last record (``DamagedCopy/keep(_:of:in:fileSystem:)``) before the journal is
    /// cut. (A record cut by a crash was never acknowledged; the store cannot tell that from a journal cut or
    /// damaged afterwards.) Returns the copy's path relative to the store.
    private func keep(_ torn: FileStoreRecovery.TornTail) throws(FileStoreError) -> String {
        try DamagedCopy.keep(
            torn, of: try fileSystem.readFile(at: path(torn.file)), in: directory, fileSystem: fileSystem)
    }
}
