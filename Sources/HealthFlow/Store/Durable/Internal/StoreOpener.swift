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
    let directory: String
    let appBundleIdentifier: String
    let sizeLimit: Int

    /// What opening produced.
    struct Opened {
        let state: StoreState
        let journal: JournalWriter
        let recovery: FileStoreRecovery
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
            sizeLimit: sizeLimit, file: loaded.file, lock: lock, generation: loaded.generation, length: loaded.length)
        return Opened(state: loaded.state, journal: journal, recovery: loaded.recovery)
    }

    /// What loading produced: the state, the journal to append to (open, complete up to `length`), and the
    /// report.
    private struct Loaded {
        let state: StoreState
        let file: any StoreFile
        let generation: UInt64
        let length: Int
        let recovery: FileStoreRecovery
    }

    private func path(_ name: String) -> String {
        directory + "/" + name
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

    private func load() throws(FileStoreError) -> Loaded {
        var journals: [UInt64] = []
        var snapshots: [UInt64] = []
        var temporaries: [String] = []
        for name in try fileSystem.contentsOfDirectory(at: directory) {
            switch StoreLayout.classify(name) {
            case .journal(let generation): journals.append(generation)
            case .snapshot(let generation): snapshots.append(generation)
            case .temporary: temporaries.append(name)
            case .other: break
            }
        }
        journals.sort()
        snapshots.sort()
        let snapshot = snapshots.last
        let base = snapshot ?? 0
        var state =
            try snapshot.map { generation throws(FileStoreError) in
                try SnapshotReader(
                    fileSystem: fileSystem, directory: directory, appBundleIdentifier: appBundleIdentifier
                ).read(generation: generation)
            } ?? StoreState(appBundleIdentifier: appBundleIdentifier)

        let live = journals.filter { $0 >= base }
        for (position, generation) in live.enumerated() where generation != base + UInt64(position) {
            throw .missingJournal(generation: base + UInt64(position))
        }

        var replayed = 0
        var tail: (generation: UInt64, length: Int, torn: FileStoreRecovery.TornTail?)?
        for (position, generation) in live.enumerated() {
            let result = try replay(journal: generation, into: &state, isLast: position == live.count - 1)
            replayed += result.records
            tail = (generation, result.length, result.torn)
        }

        // Leftovers: unfinished temporary files, and files the loaded snapshot covers.
        var removed: [String] = []
        for name in temporaries where try removeTemporary(name) { removed.append(name) }
        let covered =
            journals.filter { $0 < base }.map(StoreLayout.journalName)
            + snapshots.filter { $0 < base }.map(StoreLayout.snapshotName)
        for name in covered { try fileSystem.removeFile(at: path(name)) }
        removed = (removed + covered).sorted()
        if !removed.isEmpty { try fileSystem.syncDirectory(at: directory) }

        let recovery = FileStoreRecovery(
            snapshotGeneration: snapshot, journalGenerations: live, replayedRecords: replayed,
            tornTail: tail?.torn, removedFiles: removed)
        if let tail {
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
                state: state, file: file, generation: tail.generation, length: tail.length, recovery: recovery)
        }
        let creator = JournalCreator(
            fileSystem: fileSystem, directory: directory, appBundleIdentifier: appBundleIdentifier)
        let created = try creator.create(generation: base)
        do throws(FileStoreError) {
            try fileSystem.syncDirectory(at: directory)
        } catch {
            created.file.close()
            throw error
        }
        return Loaded(state: state, file: created.file, generation: base, length: created.length, recovery: recovery)
    }

    /// Replays one journal into `state`; returns how many records it applied, the length of its intact part,
    /// and its torn tail (allowed only in the last journal: earlier ones were complete when the next began).
    private func replay(
        journal generation: UInt64, into state: inout StoreState, isLast: Bool
    ) throws(FileStoreError) -> (records: Int, length: Int, torn: FileStoreRecovery.TornTail?) {
        let name = StoreLayout.journalName(generation)
        let bytes = try fileSystem.readFile(at: path(name))
        let magic = StoreLayout.journalMagic
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            throw .corruptFile(name: name, offset: 0, problem: .notAStoreFile)
        }
        let scanner = FrameScanner(bytes: bytes)
        var decoder = SampleDecoder()
        var offset = magic.count
        var records = 0
        var sawHeader = false
        while true {
            switch scanner.scan(at: offset) {
            case .end:
                guard sawHeader else { throw .corruptFile(name: name, offset: offset, problem: .truncated) }
                return (records, offset, nil)
            case .tornTail(let at, let problem):
                // A journal is renamed into place with its header flushed: a damaged header is corruption.
                guard isLast, sawHeader else { throw .corruptFile(name: name, offset: at, problem: problem) }
                return (
                    records, at,
                    FileStoreRecovery.TornTail(file: name, offset: at, length: bytes.count - at, problem: problem)
                )
            case .corrupt(let at, let problem):
                throw .corruptFile(name: name, offset: at, problem: problem)
            case .record(let kind, let payload, let next):
                var reader = BinaryReader(bytes, range: payload)
                if !sawHeader {
                    guard kind == .header else {
                        throw .corruptFile(
                            name: name, offset: offset, problem: .undecodable("the journal has no header"))
                    }
                    let header = try decoded(name, offset) { () throws(BinaryReader.Failure) in
                        try StoreFileHeader(from: &reader)
                    }
                    guard header.appBundleIdentifier == appBundleIdentifier else {
                        throw .differentApp(stored: header.appBundleIdentifier, configured: appBundleIdentifier)
                    }
                    guard header.generation == generation else {
                        throw .corruptFile(
                            name: name, offset: offset,
                            problem: .inconsistent("the header names generation \(header.generation)"))
                    }
                    sawHeader = true
                } else {
                    let mutation = try decoded(name, offset) { () throws(BinaryReader.Failure) in
                        try MutationCodec.decode(kind: kind, from: &reader, samples: &decoder)
                    }
                    if let problem = state.replayProblem(mutation) {
                        throw .corruptFile(name: name, offset: offset, problem: .inconsistent(problem))
                    }
                    _ = state.apply(mutation)
                    records += 1
                }
                offset = next
            }
        }
    }

    /// Runs a decoder, reporting its failure as damage at `offset` of file `name`.
    private func decoded<Value>(
        _ name: String, _ offset: Int, _ decode: () throws(BinaryReader.Failure) -> Value
    ) throws(FileStoreError) -> Value {
        do {
            return try decode()
        } catch {
            throw .corruptFile(name: name, offset: offset, problem: .undecodable(error.reason))
        }
    }
}
