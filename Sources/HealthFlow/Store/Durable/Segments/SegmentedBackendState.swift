import Foundation

/// Everything a ``SegmentedHealthStoreBackend`` keeps: the storages by type, the log, the sequence. Not
/// thread-safe: used under the backend's lock.
struct SegmentedBackendState {
    static let lockName = "segments.lock"

    let directory: FileSystemPath
    let fileSystem: any StoreFileSystem
    let memtableLimit: SegmentMemtableLimit
    /// The estimated bytes all memtables together may hold (``SegmentMemtable/bytes``): past it, the largest
    /// are flushed until they are back within it.
    let memtableBudget: Int
    let logLimit: Int
    /// How many segments of one size class are merged into one (``compactIfDue(_:)``).
    let compactionFanout: Int
    private(set) var storages: [HealthObjectType: SegmentedTypeStorage] = [:]
    private(set) var log: SegmentLog?
    private var lock: (any StoreFile)?
    private(set) var lastSequence: UInt64 = 0
    /// The store's identity, from its log's header (drawn when the directory's first log was made).
    private(set) var storeID = UUID()
    /// The fingerprints of the change history, by batch (``SegmentHistory``).
    private(set) var history: SegmentHistory?
    /// The answers to permission sheets, by app (``SegmentAuthorization``).
    private(set) var authorization: [String: HealthAuthorizationAnswers] = [:]
    /// What stopped the backend accepting changes.
    private(set) var failure: FileStoreError?
    /// Every UUID the storages hold, built by the first uniqueness question (``liveUUIDs(among:)``).
    let heldKeys = HeldKeyFilter()
    /// Where the storages' full memtables are written as segments while changes go on (``SegmentFlusher``).
    let flusher = SegmentFlusher()
    /// The storages that wrote a segment and may be due a merge (``compactIfDue(_:)``), oldest first. A change
    /// merges for at most one of them (``afterChange()``): the merges that the flushes of many types call for at
    /// once — an export's types fill their memtables at the same pace — are spread over the changes that follow
    /// rather than all made by one, which would keep its writer waiting for all of them.
    private var compactionQueue: [SegmentedTypeStorage] = []

    // MARK: Opening

    /// Takes the lock, opens the storage of every type with segments in `directory`, replays the logs and cuts a
    /// torn tail off the newest; creates the first log when there is none.
    /// With `repair`, every segment is first read whole and each damaged one repaired (``SegmentRepairPass``);
    /// when any was, the history restarts after the last change (its checkpoints before are not vouched for).
    static func open(
        directory: FileSystemPath, fileSystem: any StoreFileSystem, memtableLimit: SegmentMemtableLimit,
        memtableBudget: Int, logLimit: Int, compactionFanout: Int, repair: Bool = false
    ) throws(FileStoreError) -> (state: SegmentedBackendState, recovery: SegmentedBackendRecovery) {
        try fileSystem.makeDirectory(at: directory)
        let lock = try fileSystem.lockFile(at: directory.appending(lockName))
        var state = SegmentedBackendState(
            directory: directory, fileSystem: fileSystem, memtableLimit: memtableLimit,
            memtableBudget: max(1, memtableBudget), logLimit: max(1, logLimit),
            compactionFanout: max(2, compactionFanout))
        state.lock = lock
        do throws(FileStoreError) {
            if repair {
                try DurableStoreFormat.segments.requireNoOther(
                    in: try fileSystem.contentsOfDirectory(at: directory), directory: directory)
            }
            var repaired: (repairs: [FileStoreRepair], movedAside: [String]) = ([], [])
            if repair { repaired = try SegmentRepairPass.run(directory: directory, fileSystem: fileSystem) }
            let recovery = try state.load(repairs: repaired.repairs, movedAside: repaired.movedAside)
            return (state, recovery)
        } catch {
            state.close()
            throw error
        }
    }

    private init(
        directory: FileSystemPath, fileSystem: any StoreFileSystem, memtableLimit: SegmentMemtableLimit,
        memtableBudget: Int, logLimit: Int, compactionFanout: Int
    ) {
        self.compactionFanout = compactionFanout
        self.directory = directory
        self.fileSystem = fileSystem
        self.memtableLimit = memtableLimit
        self.memtableBudget = memtableBudget
        self.logLimit = logLimit
    }

    private mutating func load(
        repairs: [FileStoreRepair], movedAside: [String]
    ) throws(FileStoreError) -> SegmentedBackendRecovery {
        let names = try fileSystem.contentsOfDirectory(at: directory)
        try DurableStoreFormat.segments.requireNoOther(in: names, directory: directory)
        authorization = try SegmentAuthorization.read(in: directory, names: names, fileSystem: fileSystem)
        var types: Set<HealthObjectType> = []
        var generations: [UInt64] = []
        for name in names {
            if let type = Self.segmentType(in: name) { types.insert(type) }
            if let generation = SegmentLog.generation(in: name) { generations.append(generation) }
        }
        for type in types.sorted(by: { $0.identifier < $1.identifier }) { _ = try storage(for: type) }
        lastSequence = storages.values.map(\.lastSequence).max() ?? 0
        let segmentsEnd = lastSequence
        // The last change the newest log holds (its start when it holds none); nil without any log.
        var logsEnd: UInt64?
        generations.sort()
        var replayed = 0
        var batches: [(sum: UInt64, last: UInt64)] = []
        var origin: UInt64?
        var torn: FileStoreRecovery.TornTail?
        var current: (generation: UInt64, outcome: SegmentLogReplay.Outcome, size: Int)?
        for (position, generation) in generations.enumerated() {
            let name = SegmentLog.name(generation)
            let bytes = try fileSystem.readFile(at: directory.appending(name))
            let replay = SegmentLogReplay(
                name: name, bytes: bytes, generation: generation, isLast: position == generations.count - 1)
            var sequence: UInt64?
            let outcome = try replay.run { (header: StoreFileHeader, mutation: StoreMutation) throws(FileStoreError) in
                var next = sequence ?? header.startSequence ?? 0
                var sum: UInt64 = 0
                try replayChange(mutation, sequence: &next, historySum: &sum)
                batches.append((sum, next))
                sequence = next
            }
            if origin == nil { origin = outcome.header.startSequence ?? 0 }
            logsEnd = sequence ?? outcome.header.startSequence ?? 0
            lastSequence = max(lastSequence, logsEnd ?? 0)
            replayed += outcome.changes
            if let cut = outcome.torn {
                // As the durable store does (``FileStoreRecovery/TornTail/keptAs``): bytes not read are kept.
                torn = cut.kept(
                    as: try DamagedCopy.keep(cut, of: bytes, in: directory, fileSystem: fileSystem))
            }
            current = (generation, outcome, bytes.count)
        }
        // A memtable sealed by the replay is in place, or its error thrown, before the opening goes on.
        for storage in storages.values { try storage.installSealed(waiting: true) }
        let (history, restarted) = try SegmentHistory.open(
            directory: directory, names: names, fileSystem: fileSystem, origin: origin ?? lastSequence)
        // Every change a segment holds was logged first, and the history file is written before a rotation lets
        // go of a log; a log starts where its predecessor's changes are all in segments. So the newest log reaches
        // every change the segments and the history name, unless logs were removed by something else.
        if max(segmentsEnd, history.isRestartPending ? 0 : history.writtenThrough) > (logsEnd ?? 0) {
            throw .corruptFile(
                name: SegmentLog.name((generations.last ?? 0) + 1), offset: 0, problem: .missingFile)
        }
        self.history = history
        for batch in batches { self.history?.add(batch: batch.sum, through: batch.last) }
        // A restarted history is written at once, so that the restart is reported by this opening only; if that
        // fails, the next opening restarts it the same way (from the same oldest log) and reports it again.
        if restarted { try? self.history?.persist() }
        // Rows a repair lost leave the history's sums describing changes the store no longer holds: the repair
        // marked it to restart before changing a segment, and it restarts here, after the last change (a failure
        // stops opening, and the mark stays for the next one).
        let restartedAt: UInt64? =
            history.isRestartPending ? lastSequence : (restarted ? history.origin : nil)
        if history.isRestartPending { try self.history?.restart(at: lastSequence) }
        if let current {
            storeID = current.outcome.header.storeID ?? storeID
            let name = SegmentLog.name(current.generation)
            let file = try fileSystem.openFile(at: directory.appending(name))
            if current.outcome.length < current.size {
                do throws(FileStoreError) {
                    try file.truncate(to: current.outcome.length)
                    try file.sync()
                } catch {
                    file.close()
                    throw error
                }
            }
            log = SegmentLog(
                fileSystem: fileSystem, directory: directory, storeID: current.outcome.header.storeID ?? UUID(),
                generation: current.generation, file: file, length: current.outcome.length,
                headerLength: current.outcome.headerLength)
        } else {
            log = try SegmentLog.create(
                fileSystem: fileSystem, directory: directory, storeID: storeID, generation: 1,
                startSequence: lastSequence)
        }
        var removed = storages.values.flatMap(\.removedOnOpening)
        for name in names where name.hasPrefix(StoreLayout.temporaryPrefix) {
            if let inner = Self.temporaryInner(name),
                SegmentLog.generation(in: inner) != nil || inner == SegmentHistory.fileName
                    || inner == SegmentAuthorization.fileName,
                (try? fileSystem.removeFile(at: directory.appending(name))) != nil
            {
                removed.append(name)
            }
        }
        return SegmentedBackendRecovery(
            logGenerations: generations, replayedChanges: replayed, tornTail: torn,
            historyRestarted: restartedAt, removedFiles: removed.sorted(), repairs: repairs, movedAside: movedAside)
    }

    /// Applies one logged change whose first object takes number `sequence + 1`, skipping each object whose
    /// number its type's segments already cover, and adds every object's ``HistoryMix`` to `historySum`.
    private mutating func replayChange(
        _ mutation: StoreMutation, sequence: inout UInt64, historySum: inout UInt64
    ) throws(FileStoreError) {
        switch mutation {
        case .insert(let samples):
            try replayInsert(samples.lazy.map { ($0, nil) }, sequence: &sequence, historySum: &historySum)
        case .insertSeries(let entries):
            try replayInsert(
                entries.lazy.map { ($0.sample, $0.series.isEmpty ? nil : $0.series) }, sequence: &sequence,
                historySum: &historySum)
        case .addSeries(let uuid, let added, let announces):
            guard announces else { throw logProblem("a segment log's series addition does not announce its sample") }
            sequence += 1
            historySum &+= HistoryMix.addition(sequence: sequence, uuid: uuid)
            guard let (storage, row) = try liveRow(uuid), sequence > storage.lastSequence else { break }
            try storage.insert([try Self.version(of: row, adding: added, sequence: sequence)])
        case .delete(let uuids):
            for uuid in uuids {
                sequence += 1
                historySum &+= HistoryMix.deletion(sequence: sequence, uuid: uuid)
                guard let (storage, row) = try liveRow(uuid), row.entry.sequence < sequence,
                    sequence > storage.lastSequence
                else { continue }
                try storage.delete(uuid, sequence: sequence)
            }
        case .authorization:
            throw logProblem("a segment log holds insertions, series additions and deletions only")
        }
        lastSequence = max(lastSequence, sequence)
    }

    /// Replays the insertion of `samples` (each with the series kept beside it, if any) whose first object takes
    /// number `sequence + 1`, skipping each object whose number its type's segments already cover.
    private mutating func replayInsert(
        _ samples: some Sequence<(HealthSample, HealthSampleSeries?)>, sequence: inout UInt64,
        historySum: inout UInt64
    ) throws(FileStoreError) {
        var rows: [HealthObjectType: [SegmentRow]] = [:]
        var order: [HealthObjectType] = []
        for (sample, series) in samples {
            for (offset, object) in HealthSaveRules.flattened(sample).enumerated() {
                sequence += 1
                historySum &+= HistoryMix.addition(sequence: sequence, uuid: object.uuid)
                let storage = try storage(for: object.type)
                guard sequence > storage.lastSequence else { continue }
                if rows[object.type] == nil { order.append(object.type) }
                rows[object.type, default: []].append(
                    Self.row(
                        object, correlation: offset == 0 ? nil : sample.uuid, sequence: sequence,
                        series: offset == 0 ? series : nil))
            }
        }
        for type in order { try storages[type]?.insert(rows[type] ?? []) }
    }

    /// Damage in the log being replayed: a change this backend never writes.
    private func logProblem(_ problem: String) -> FileStoreError {
        .corruptFile(
            name: log.map { SegmentLog.name($0.generation) } ?? SegmentLog.prefix, offset: 0,
            problem: .inconsistent(problem))
    }

    /// A new version of the live top-level `row` as change `sequence`, keeping `added` after its series.
    /// - Throws: Damage reading the series it keeps.
    private static func version(
        of row: SegmentRow, adding added: HealthSampleSeries, sequence: UInt64
    ) throws(FileStoreError) -> SegmentRow {
        let kept = try row.series?.series(of: added.kind)
        let series = kept.map { $0.appending(added) ?? added } ?? added
        return SegmentRow(
            entry: IndexedSample(
                sample: row.entry.sample, start: row.entry.start, end: row.entry.end, sequence: sequence,
                isOwned: row.entry.isOwned),
            correlation: nil, series: .held(series))
    }

    /// The type in a segment's name, or in the temporary name of a segment or its scratch file.
    static func segmentType(in name: String) -> HealthObjectType? {
        let inner = temporaryInner(name).map { $0.hasSuffix(".runs") ? String($0.dropLast(5)) : $0 } ?? name
        let head = SegmentName.prefix.utf8.count
        let tail = 33 + 1 + SegmentName.suffix.utf8.count
        let bytes = Array(inner.utf8)
        guard bytes.count > head + tail, inner.hasPrefix(SegmentName.prefix), inner.hasSuffix(SegmentName.suffix)
        else { return nil }
        let identifier = String(decoding: bytes[head..<(bytes.count - tail)], as: UTF8.self)
        guard let type = HealthObjectType(identifier: identifier) else { return nil }
        switch SegmentName.classify(name, for: type) {
        case .segment, .temporary: return type
        case .other: return nil
        }
    }

    private static func temporaryInner(_ name: String) -> String? {
        guard name.hasPrefix(StoreLayout.temporaryPrefix), name.hasSuffix(StoreLayout.temporarySuffix),
            name.utf8.count > StoreLayout.temporaryPrefix.utf8.count + StoreLayout.temporarySuffix.utf8.count
        else { return nil }
        return String(name.dropFirst(StoreLayout.temporaryPrefix.count).dropLast(StoreLayout.temporarySuffix.count))
    }

    private mutating func storage(for type: HealthObjectType) throws(FileStoreError) -> SegmentedTypeStorage {
        if let storage = storages[type] { return storage }
        let storage = try SegmentedTypeStorage(
            type: type, directory: directory, fileSystem: fileSystem, memtableLimit: memtableLimit,
            heldKeys: heldKeys, flusher: flusher)
        storages[type] = storage
        return storage
    }

    private static func row(
        _ sample: HealthSample, correlation: UUID?, sequence: UInt64, series: HealthSampleSeries? = nil
    ) -> SegmentRow {
        SegmentRow(
            entry: IndexedSample(sample: sample, sequence: sequence, isOwned: false), correlation: correlation,
            series: series.map { .held($0) })
    }

    // MARK: Reading

    /// Runs a read; damage is recorded as the backend's failure and answered with `fallback`.
    mutating func answering<Result>(
        _ fallback: Result, _ read: (inout SegmentedBackendState) throws(FileStoreError) -> Result
    ) -> Result {
        do throws(FileStoreError) {
            return try read(&self)
        } catch {
            if failure == nil { failure = error }
            return fallback
        }
    }

    /// The live row `uuid` and the storage holding it.
    /// - Complexity: a look-up in each storage opened.
    private func liveRow(_ uuid: UUID) throws(FileStoreError) -> (SegmentedTypeStorage, SegmentRow)? {
        for storage in storages.values {
            if let row = try storage.row(withUUID: uuid) { return (storage, row) }
        }
        return nil
    }

    /// Which of `uuids` a live sample has (``liveRow(_:)`` finds it), asking each storage once for all of them.
    /// - Complexity: O(k) for k UUIDs held nowhere (``HeldKeyFilter``), once the filter is built (which reads
    ///   every segment's UUID blocks, on the first call); each other UUID as ``liveRow(_:)``.
    func liveUUIDs(among uuids: [UUID]) throws(FileStoreError) -> Set<UUID> {
        try heldKeys.build(keyCount: storages.values.reduce(0) { $0 + $1.heldKeyCount }) {
            (add: (UUIDKey) -> Void) throws(FileStoreError) in
            for storage in storages.values { try storage.forEachHeldKey(add) }
        }
        var pending: [UUIDKey] = []
        for uuid in uuids {
            let key = UUIDKey(uuid)
            if heldKeys.mayContain(BloomFilter.Probe(key)) { pending.append(key) }
        }
        var live = Set<UUID>()
        for storage in storages.values where !pending.isEmpty {
            let found = try storage.liveKeys(among: pending)
            guard !found.isEmpty else { continue }
            for key in found { live.insert(key.uuid) }
            // A UUID live in one type is live nowhere else; one deleted here may be live in another type.
            let foundSet = Set(found)
            pending.removeAll { foundSet.contains($0) }
        }
        return live
    }

    func stored(_ uuid: UUID) throws(FileStoreError) -> StoredHealthSample? {
        try liveRow(uuid).map { StoredHealthSample(sample: $0.1.entry.sample, correlation: $0.1.correlation) }
    }

    /// The series kept beside the live sample `uuid`, read from its segment when stored there.
    func series(ofSampleWith uuid: UUID) throws(FileStoreError) -> HealthSampleSeries? {
        guard let (storage, row) = try liveRow(uuid), let kind = SeriesKind(sampleType: storage.type) else {
            return nil
        }
        return try row.series?.series(of: kind)
    }

    func samples(of type: HealthObjectType, matching predicate: SamplePredicate?) throws(FileStoreError)
        -> [HealthSample]
    {
        var rows: [SegmentRow] = []
        try forEachRow(of: type, matching: predicate) { rows.append($0) }
        rows.sort { $0.entry.sequence < $1.entry.sequence }
        return rows.map(\.entry.sample)
    }

    /// Calls `visit` with each live row of `type` whose sample `predicate` matches, in the storage's order:
    /// the UUIDs' rows for a predicate naming UUIDs, else the date-range cursor over the predicate's date bounds
    /// (every block without them), which holds one decoded block per segment at a time.
    /// - Throws: Damage found in a block read; `visit` may have been called for rows before it.
    func forEachRow(
        of type: HealthObjectType, matching predicate: SamplePredicate?, _ visit: (SegmentRow) -> Void
    ) throws(FileStoreError) {
        guard let storage = storages[type] else { return }
        let plan = QueryPlan(predicate, longestDuration: .infinity)
        let matches = { (row: SegmentRow) in
            predicate?.evaluate(row.entry.sample, start: row.entry.start, end: row.entry.end) ?? true
        }
        if let uuids = plan.uuids {
            for row in try storage.rows(withUUIDs: uuids) where matches(row) { visit(row) }
            return
        }
        let lowerStart = plan.lowerStart.flatMap { $0.isFinite ? $0 : nil }
        let lowerEnd = predicate?.dateRange.start?.timeIntervalSinceReferenceDate
        var cursor = storage.rangeCursor(startingFrom: lowerStart, below: plan.upperStart, endingAtOrAfter: lowerEnd)
        while let row = try cursor.next() {
            if matches(row) { visit(row) }
        }
    }

    func changes(
        of type: HealthObjectType, after sequence: UInt64, limit: Int
    ) throws(FileStoreError) -> [HealthStoreChange] {
        guard let storage = storages[type] else { return [] }
        var cursor = storage.changeCursor(after: sequence)
        var changes: [HealthStoreChange] = []
        while changes.count < limit, let change = try cursor.next() {
            switch change {
            case .added(let row):
                changes.append(
                    HealthStoreChange(sequence: row.entry.sequence, sample: row.entry.sample, isDeletion: false))
            case .deleted(let tombstone):
                changes.append(
                    HealthStoreChange(sequence: tombstone.sequence, sample: tombstone.sample, isDeletion: true))
            }
        }
        return changes
    }

    // MARK: Changing

    private func checkUsable() throws(FileStoreError) {
        if let failure { throw .unusable(after: failure) }
        guard log != nil else { throw .closed }
    }

    /// Checks the batch's shape, logs it, then applies it; `series` names top-level samples of the batch, each of
    /// a type that keeps series of its kind (a batch with series holds only such samples: the log records each
    /// with its series, an empty one when it keeps none). `framedLog`, when given, is the batch's log record made
    /// ahead of time (``SegmentedHealthStoreBackend/framedLog(inserting:)`` of its top-level samples, for a batch
    /// without series), written as it is instead of encoding the batch here.
    mutating func insert(
        _ objects: [StoredHealthSample], series: [UUID: HealthSampleSeries] = [:], framedLog: [UInt8]? = nil
    ) throws {
        try checkUsable()
        var topLevel: [HealthSample] = []
        topLevel.reserveCapacity(objects.count)
        var index = 0
        // The objects are read in place (by index, not bound to a copy): a copy retains every reference a sample
        // holds, three times a sample over this function's loops.
        while index < objects.count {
            guard objects[index].correlation == nil else {
                throw SegmentedBackendError.unexpectedMember(index: index)
            }
            // The object, then each member of a correlation where it must follow, in the store's member order.
            let uuid = objects[index].sample.uuid
            var position = index
            try SampleRules.forEachFlattened(objects[index].sample) {
                member, correlation throws(SegmentedBackendError) in
                defer { position += 1 }
                guard correlation != nil else { return }
                guard position < objects.count, objects[position].correlation == uuid,
                    objects[position].sample.uuid == member.uuid
                else { throw .unexpectedMember(index: min(position, objects.count)) }
            }
            // A log record made ahead of time needs no list of the samples to encode.
            if framedLog == nil { topLevel.append(objects[index].sample) }
            index = position
        }
        let mutation: StoreMutation?
        if framedLog != nil {
            precondition(series.isEmpty, "a log record made ahead of time for a batch with series")
            mutation = nil
        } else if series.isEmpty {
            mutation = .insert(topLevel)
        } else {
            var entries: [SeriesSample] = []
            entries.reserveCapacity(topLevel.count)
            for (index, sample) in topLevel.enumerated() {
                guard let kind = SeriesKind(sampleType: sample.type),
                    series[sample.uuid].map({ $0.kind == kind }) ?? true
                else { throw SegmentedBackendError.unexpectedSeries(index: index) }
                entries.append(
                    SeriesSample(sample: sample, series: series[sample.uuid] ?? HealthSampleSeries(empty: kind)))
            }
            guard topLevel.lazy.filter({ series[$0.uuid] != nil }).count == series.count else {
                throw SegmentedBackendError.unexpectedSeries(index: topLevel.count)
            }
            mutation = .insertSeries(entries)
        }
        // Every storage the batch needs is opened before anything is written: opening is what may fail. A batch
        // holds runs of one type, so a type is looked up once a run. `touched`: the storages, in the order the
        // batch first names their types.
        var touched: [SegmentedTypeStorage] = []
        var opened: HealthObjectType?
        for index in objects.indices where objects[index].sample.type != opened {
            let storage = try storage(for: objects[index].sample.type)
            if !touched.contains(where: { $0 === storage }) { touched.append(storage) }
            opened = objects[index].sample.type
        }
        if let mutation {
            try log?.append(mutation)
        } else if let framedLog {
            assert(
                (try? MutationCodec.framedRecords(.insert(objects.filter { $0.correlation == nil }.map(\.sample))))
                    == framedLog, "a log record of other samples")
            try log?.append(framed: framedLog)
        }
        // Each row is moved into its type's memtable as it is made; the memtables full after the batch are
        // flushed then, in the order the batch first names their types.
        var historySum: UInt64 = 0
        var current = touched.first
        for index in objects.indices {
            lastSequence += 1
            let (uuid, correlation) = (objects[index].sample.uuid, objects[index].correlation)
            historySum &+= HistoryMix.addition(sequence: lastSequence, uuid: uuid)
            let kept = correlation == nil && !series.isEmpty ? series[uuid].flatMap { $0.isEmpty ? nil : $0 } : nil
            let row = Self.row(objects[index].sample, correlation: correlation, sequence: lastSequence, series: kept)
            let type = objects[index].sample.type
            if current?.type != type { current = touched.first { $0.type == type } }
            // Opened above, for every type of the batch.
            current!.put(row)
        }
        history?.add(batch: historySum, through: lastSequence)
        for storage in touched {
            do throws(FileStoreError) {
                if try storage.flushIfFull() { queueCompaction(of: storage) }
            } catch {
                // The rows are stored and logged; the segment that failed leaves them in the memtable.
                if failure == nil { failure = error }
            }
        }
        afterChange()
    }

    /// Logs `added` as a series addition to the live top-level sample `uuid`, then stores the sample's new version
    /// (as change `lastSequence + 1`) with its series followed by `added`.
    /// - Throws: ``SegmentedBackendError/noSampleForSeries`` when no such sample of the series' kind is live, or
    ///   the series is empty or of a kind that takes no additions (nothing changed); the log's or the file
    ///   system's error, or damage met reading the sample or its series.
    mutating func add(_ added: HealthSampleSeries, toSampleWith uuid: UUID) throws {
        try checkUsable()
        guard added.kind.additionRecord != nil, !added.isEmpty, let (storage, row) = try liveRow(uuid),
            row.correlation == nil, SeriesKind(sampleType: storage.type) == added.kind
        else { throw SegmentedBackendError.noSampleForSeries(uuid) }
        let version = try Self.version(of: row, adding: added, sequence: lastSequence + 1)
        try log?.append(.addSeries(uuid, added, announces: true))
        lastSequence += 1
        history?.add(batch: HistoryMix.addition(sequence: lastSequence, uuid: uuid), through: lastSequence)
        do throws(FileStoreError) {
            if try storage.insert([version]) { queueCompaction(of: storage) }
        } catch {
            if failure == nil { failure = error }
        }
        afterChange()
    }

    /// Keeps `answers` for the app `app` (``SegmentAuthorization``): the file is rewritten, then the answers held.
    /// - Throws: The file system's error (the answers held are unchanged then), or
    ///   ``FileStoreError/unusable(after:)`` once the backend has failed.
    mutating func keep(_ answers: HealthAuthorizationAnswers, forApp app: String) throws(FileStoreError) {
        try checkUsable()
        var apps = authorization
        apps[app] = answers
        try SegmentAuthorization.write(apps, in: directory, fileSystem: fileSystem)
        authorization = apps
    }

    /// Looks each object up, logs the deletion, then applies it.
    mutating func delete(_ objects: [HealthSample]) throws(FileStoreError) {
        try checkUsable()
        for object in objects { _ = try storage(for: object.type) }
        try log?.append(.delete(objects.map(\.uuid)))
        var historySum: UInt64 = 0
        for object in objects {
            lastSequence += 1
            historySum &+= HistoryMix.deletion(sequence: lastSequence, uuid: object.uuid)
            do throws(FileStoreError) {
                if let storage = storages[object.type] {
                    let segments = storage.segments.count
                    try storage.delete(object.uuid, sequence: lastSequence)
                    if storage.segments.count > segments { queueCompaction(of: storage) }
                }
            } catch {
                if failure == nil { failure = error }
            }
        }
        history?.add(batch: historySum, through: lastSequence)
        afterChange()
    }

    /// When all memtables together, sealed ones included, hold more than ``memtableBudget``: waits for the sealed
    /// ones' segments, then flushes the largest memtables until back within it; when every memtable is empty,
    /// waits for the sealed ones' segments too. Then makes the merges due for the oldest storage in
    /// ``compactionQueue``; then starts a new log when no memtable, sealed or not, holds a change of this one, or
    /// flushes every memtable first (and makes every merge due) when the log has passed ``logLimit``.
    private mutating func afterChange() {
        guard failure == nil else { return }
        do throws(FileStoreError) {
            var held = storages.values.reduce(0) { $0 + $1.heldBytes }
            if held > memtableBudget {
                // The writes under way free their memtables first; then the largest memtables are written at once.
                held -= try installSealed(in: storages.values)
                while held > memtableBudget,
                    let largest = storages.values.max(by: { $0.memtable.bytes < $1.memtable.bytes })
                {
                    held -= largest.memtable.bytes
                    try largest.flush()
                    queueCompaction(of: largest)
                }
            } else if storages.values.allSatisfy(\.memtable.isEmpty) {
                // The log's changes are all in segments or sealed memtables: once these are in place, the log is
                // let go of below.
                try installSealed(in: storages.values)
            }
            if !compactionQueue.isEmpty { try compactIfDue(compactionQueue.removeFirst()) }
        } catch {
            failure = error
            return
        }
        guard let log, log.length > log.headerLength else { return }
        if log.length >= logLimit {
            do throws(FileStoreError) {
                try checkpoint()
            } catch {
                if failure == nil { failure = error }
            }
        } else if storages.values.allSatisfy({ $0.memtable.isEmpty && $0.sealed == nil }) {
            // A failed rotation keeps the current log, which stays correct, and the next change tries again —
            // unless the new log may be in place (``SegmentLog/rotate(startSequence:)``): then changes stop.
            do throws(FileStoreError) {
                try rotateLog()
            } catch {
                if failure == nil, let stopped = log.failure { failure = stopped }
            }
        }
    }

    private mutating func queueCompaction(of storage: SegmentedTypeStorage) {
        if !compactionQueue.contains(where: { $0 === storage }) { compactionQueue.append(storage) }
    }

    /// Merges the newest segments of `storage` while its last ``compactionFanout`` segments are of one size class
    /// (rows / memtable rows, in powers of the fanout) no larger than the segment before them: a tiered policy
    /// that keeps about `fanout · log_fanout(n / memtable rows)` segments for n rows and rewrites each row about
    /// `log_fanout(n / memtable rows)` times (copying its block whole when the rows came in time order, as an
    /// import's do). Every deletion is kept (anchored queries report them all).
    /// - Throws: A compaction's error; the segments in use are unchanged then, unless only the directory flush
    ///   after its rename failed.
    /// - Complexity: O(rows merged · segments), each compaction's (``SegmentedTypeStorage/compact(_:keepingDeletionsAfter:)``).
    private func compactIfDue(_ storage: SegmentedTypeStorage) throws(FileStoreError) {
        while storage.segments.count >= compactionFanout {
            let classes = storage.segments.map { sizeClass(rows: $0.reader.rowCount) }
            let tail = classes.suffix(compactionFanout)
            guard let newest = tail.last, tail.allSatisfy({ $0 == newest }) else { return }
            let start = storage.segments.count - compactionFanout
            if start > 0, classes[start - 1] < newest { return }
            try storage.compact(start..<storage.segments.count, keepingDeletionsAfter: 0)
        }
    }

    private func sizeClass(rows: Int) -> Int {
        var size = max(1, rows / max(1, memtableLimit.rows))
        var level = 0
        while size >= compactionFanout {
            size /= compactionFanout
            level += 1
        }
        return level
    }

    mutating func checkpoint() throws(FileStoreError) {
        try checkUsable()
        for storage in storages.values {
            do throws(FileStoreError) {
                try storage.flush()
                try compactIfDue(storage)
            } catch {
                failure = error
                throw error
            }
        }
        compactionQueue.removeAll()
        try rotateLog()
    }

    /// Writes the history's batches to its file, then starts a new log, which lets go of the older ones: their
    /// batches' fingerprints are on disk first.
    private mutating func rotateLog() throws(FileStoreError) {
        try history?.persist()
        try log?.rotate(startSequence: lastSequence)
    }

    /// The fingerprint of the history through `sequence` (``SegmentHistory/fingerprint(through:)``).
    func historyFingerprint(through sequence: UInt64) throws(FileStoreError) -> UInt64? {
        try history?.fingerprint(through: sequence)
    }

    /// Waits for the segments of the sealed memtables of `storages` and puts them in place in the order they were
    /// sealed, queueing their merges in that order.
    /// - Returns: The bytes the sealed memtables held.
    /// - Throws: The first write's error (``SegmentedTypeStorage/installSealed(waiting:)``).
    @discardableResult
    private mutating func installSealed(
        in storages: some Sequence<SegmentedTypeStorage>
    ) throws(FileStoreError) -> Int {
        var freed = 0
        let sealing = storages.compactMap { storage in storage.sealed.map { (storage, $0.newestSequence) } }
        for (storage, _) in sealing.sorted(by: { $0.1 < $1.1 }) {
            guard let sealed = storage.sealed else { continue }
            freed += sealed.rows.bytes
            if try storage.installSealed(waiting: true) { queueCompaction(of: storage) }
        }
        return freed
    }

    /// Waits for every sealed memtable's segment and puts it in place (or its rows back in their memtable).
    /// - Throws: The first write's error; every write is waited for either way.
    func finishFlushes() throws(FileStoreError) {
        var first: FileStoreError?
        for storage in storages.values {
            do throws(FileStoreError) {
                try storage.installSealed(waiting: true)
            } catch {
                if first == nil { first = error }
            }
        }
        if let first { throw first }
    }

    mutating func close() {
        // A segment being written finishes before the lock is let go: no later opening meets its temporary file.
        try? finishFlushes()
        log?.close()
        log = nil
        lock?.close()
        lock = nil
    }
}
