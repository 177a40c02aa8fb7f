import FlowKit
import Foundation

/// A durable ``HealthStoreBackend`` whose memory stays bounded whatever it holds: each type's samples in a
/// ``SegmentedTypeStorage`` (a bounded memtable plus immutable segment files), and a write-ahead log
/// (``SegmentLog``) of the changes the memtables hold. As a ``HealthSeriesStoreBackend`` it keeps the series beside
/// samples (an ECG's voltages, a workout's routes, a heartbeat series' beats): logged with their sample, held in the
/// memtable (and counted in its bytes), then written as a block of their own beside the row, read only when asked
/// for and copied as they are by merges. Routes added to a stored workout are a new version of its row.
///
/// - Every change is written to the log and flushed (`fsync`) before it is applied: one write and one flush per
///   insert or delete batch. Acknowledged changes survive a crash.
/// - Opening rebuilds every type's segments from the file names, then replays the logs, skipping each change
///   whose sequence number the segments of its type already cover. A change cut short at the end of the newest
///   log was never acknowledged: its bytes are copied to `damaged/`, it is reported in ``recovery``
///   (``FileStoreRecovery/TornTail``) and cut off; any other damage is thrown, never skipped.
/// - Once no memtable holds a change of the log, or the log passes ``logLimit`` bytes (every memtable is then
///   flushed first), a new log generation starts and older ones are removed.
/// - A full memtable is sealed and written as the type's next segment by the backend's ``SegmentFlusher`` (a thread
///   of its own) while changes go on into a new memtable: one sealed memtable a type, read with the memtable until
///   its segment is put in place — at the type's next seal, when every memtable is empty, past the memory budget,
///   at a checkpoint, or on closing (dropping the backend also waits for it). A write that fails gives its rows back
///   to the memtable, and changes stop, as after any failed flush.
/// - After a flush, a type's newest segments are merged when enough of one size class have gathered (a tiered
///   policy, fanout 8): about 8 segments per power of 8 of its rows, each row rewritten once per power. A change
///   makes the merges of one type at most: when flushes of several types call for merges at once, the others'
///   are made by the changes that follow, in turn (and all of them by a checkpoint).
/// - Memory: the memtables (each bounded by its ``SegmentMemtableLimit``; all together, sealed ones included, after
///   each change, by ``standardMemtableBudget``: past it, the sealed ones' writes are waited for, then the largest
///   are flushed) and, per segment, its block index and Bloom filter (about 3 bytes a sample); never a segment's
///   samples. Opening also reads the newest log whole (about ``standardLogLimit`` bytes).
/// - Files: in the directory given, only names this backend generates — `segment-…` files (``SegmentName``),
///   `segment-log-….hfj` logs, the history `segments-history.hfh` (``SegmentHistory``), the permission answers
///   `segments-authorization.hfa` (``SegmentAuthorization``), their temporary names, and `segments.lock` — are
///   read, written or removed, and torn tails are copied into `damaged/` under new names.
/// - History: as a ``HealthHistoryStoreBackend`` it keeps its identity in every log's header and the fingerprint
///   of its history at the end of every batch, so a ``BackedHealthStore`` over it is a ``HealthChangeHistory``.
///
/// A read that meets damage answers as if nothing matched (the protocol's reads cannot throw), records the
/// error, and every later change throws ``FileStoreError/unusable(after:)``; so does a failed flush of a
/// memtable or of the log.
///
/// - Note: Sendable: all state is behind one lock (``LockedState``); copies of a backend share it. The flusher's
///   thread reads only a sealed memtable (never changed once sealed) and writes only that segment's files.
public struct SegmentedHealthStoreBackend: HealthSeriesStoreBackend, HealthHistoryStoreBackend,
    HealthAuthorizationStoreBackend
{
    private let core: SegmentedBackendCore

    /// Opens, or creates, the backend in `directory` (created with mode 0700 when missing) and takes its lock.
    ///
    /// With `recovery` ``FileStoreRecoveryMode/repair``, every segment is first read whole and checked (O(store
    /// size)); each damaged one is repaired — what reads is written again under its name, the damaged file kept
    /// in `damaged/` — and reported in ``SegmentedBackendRecovery/repairs``; the history then restarts
    /// (``SegmentedBackendRecovery/historyRestarted``), so a sync sends everything again rather than trust
    /// checkpoints of rows that are gone. Damage in a log, the history or the permission answers is not repaired:
    /// it still throws.
    /// - Throws: ``FileStoreError/alreadyOpen(path:)`` when another backend holds the directory;
    ///   ``FileStoreError/otherFormat(path:holds:)`` when it holds the journal store;
    ///   ``FileStoreError/corruptFile(name:offset:problem:)`` for damage in a segment, a log, the history's last
    ///   entry or the permission answers (the damaged file is left as it is, no log is cut and no change lost;
    ///   memtables filled by the changes replayed before the damage may have been written as segments, which hold
    ///   logged changes only), or for a missing newest log (``FileStoreError/Damage/missingFile``, naming the
    ///   generation after the newest present: the segments or the history name changes no remaining log holds);
    ///   or the file system's error.
    /// - Complexity: O(segment indexes + log size); with a repair, O(store size) more.
    public init(
        directory: FileSystemPath, recovery: FileStoreRecoveryMode = .tolerateTornTail
    ) throws(FileStoreError) {
        try self.init(directory: directory, fileSystem: PosixFileSystem(), repair: recovery == .repair)
    }

    init(
        directory: FileSystemPath, fileSystem: any StoreFileSystem, memtableLimit: SegmentMemtableLimit = .standard,
        memtableBudget: Int = SegmentedHealthStoreBackend.standardMemtableBudget,
        logLimit: Int = SegmentedHealthStoreBackend.standardLogLimit, compactionFanout: Int = 8, repair: Bool = false
    ) throws(FileStoreError) {
        core = try SegmentedBackendCore(
            directory: directory, fileSystem: fileSystem, memtableLimit: memtableLimit,
            memtableBudget: memtableBudget, logLimit: logLimit, compactionFanout: compactionFanout, repair: repair)
    }

    /// What a repairing opening would repair, found by reading every segment whole without changing anything (nor
    /// taking the lock): one report per damaged segment, as ``SegmentedBackendRecovery/repairs`` would give it.
    /// - Throws: The file system's error.
    /// - Complexity: O(store size).
    public static func assessDamage(directory: FileSystemPath) throws(FileStoreError) -> [FileStoreRepair] {
        try SegmentRepairPass.assess(directory: directory, fileSystem: PosixFileSystem()).map(\.finding.repair)
    }

    /// The log size, in bytes, past which every memtable is flushed and a new log starts: 32 MiB.
    public static let standardLogLimit = 32 << 20

    /// The estimated bytes all types' memtables together may hold before the largest are flushed: 32 MiB, so an
    /// export of many types keeps the memory of a few full memtables, not of one per type.
    public static let standardMemtableBudget = 32 << 20

    /// What opening found: the log changes replayed and a torn tail cut off, if any.
    public var recovery: SegmentedBackendRecovery { core.recovery }

    /// The error that stopped the backend accepting changes, if any.
    public var failure: FileStoreError? { core.state.withLock { $0.failure } }

    /// The number of the last change, replayed ones included; 0 before any.
    public var lastSequence: UInt64 { core.state.withLock { $0.lastSequence } }

    /// The answers kept for the app in `segments-authorization.hfa` (``SegmentAuthorization``).
    public func authorizationAnswers(forApp bundleIdentifier: String) -> HealthAuthorizationAnswers {
        core.state.withLock { $0.authorization[bundleIdentifier] ?? HealthAuthorizationAnswers() }
    }

    /// Rewrites `segments-authorization.hfa` with `answers` for the app (under a temporary name, flushed, renamed
    /// into place and the directory flushed).
    /// - Throws: ``FileStoreError`` — the file system's error (the answers kept are unchanged), or
    ///   ``FileStoreError/unusable(after:)`` after an earlier failure.
    public mutating func keep(_ answers: HealthAuthorizationAnswers, forApp bundleIdentifier: String) throws {
        try core.state.withLock { state throws(FileStoreError) in try state.keep(answers, forApp: bundleIdentifier) }
    }

    /// The identity in the header of every log, drawn when the directory's first log was made.
    public var storeID: UUID { core.state.withLock { $0.storeID } }

    /// The wrapping sum of a mix of each change's sequence number and UUID over every change up to `sequence` (as
    /// the durable store's), kept for the end of every batch since the history began (``SegmentHistory``: in memory for the logs in use, in `segments-history.hfh` before them).
    /// - Complexity: O(log b) for b batches: a binary search in memory, or `pread`s of the history file.
    public func historyFingerprint(through sequence: UInt64) -> UInt64? {
        core.state.withLock { state in
            state.answering(nil) { state throws(FileStoreError) in try state.historyFingerprint(through: sequence) }
        }
    }

    /// - Complexity: per type opened, a memtable look-up and a Bloom filter check per segment (a block read for
    ///   each segment that may hold it).
    public func sample(withUUID uuid: UUID) -> StoredHealthSample? {
        core.state.withLock { state in
            state.answering(nil) { state throws(FileStoreError) in try state.stored(uuid) }
        }
    }

    /// - Complexity: a probe of the store's filter of held UUIDs per UUID (``HeldKeyFilter``; the first call builds
    ///   it, reading every segment's UUID blocks); then, for the few it cannot rule out, per type opened a memtable
    ///   look-up, and per segment a Bloom filter check per UUID not found yet and one read of each UUID block and
    ///   row block (its keys, not its samples) that may hold one of them.
    public func storedUUIDs(among uuids: [UUID]) -> Set<UUID> {
        core.state.withLock { state in
            state.answering([]) { state throws(FileStoreError) in try state.liveUUIDs(among: uuids) }
        }
    }

    /// - Complexity: the storage's date-range cursor over the predicate's date bounds (every block without
    ///   them), plus O(r log r) to put the r matches in insertion order; memory O(r).
    public func samples(of type: HealthObjectType, matching predicate: SamplePredicate?) -> [HealthSample] {
        core.state.withLock { state in
            state.answering([]) { state throws(FileStoreError) in try state.samples(of: type, matching: predicate) }
        }
    }

    /// Ranks each object by its sequence number.
    /// - Complexity: as ``samples(of:matching:)`` without the sort; memory for the memtable's matches and one
    ///   decoded block per segment, whatever the number of matches.
    public func reduceSamples<Partial: Sendable>(
        of type: HealthObjectType, matching predicate: SamplePredicate?, into result: inout Partial,
        _ add: @Sendable (inout Partial, _ sample: HealthSample, _ rank: UInt64) -> Void
    ) -> Bool {
        core.state.withLock { state in
            state.answering(false) { state throws(FileStoreError) in
                try state.forEachRow(of: type, matching: predicate) { row in
                    add(&result, row.entry.sample, row.entry.sequence)
                }
                return true
            }
        }
    }

    /// - Complexity: the storage's change cursor, stopped after `limit`; memory O(limit).
    public func changes(of type: HealthObjectType, after sequence: UInt64, limit: Int) -> [HealthStoreChange] {
        core.state.withLock { state in
            state.answering([]) { state throws(FileStoreError) in
                try state.changes(of: type, after: sequence, limit: limit)
            }
        }
    }

    /// - Throws: ``FileStoreError`` — the log's or the file system's error (nothing changed), or
    ///   ``FileStoreError/unusable(after:)`` after an earlier failure; ``SegmentedBackendError`` when the
    ///   objects are not top-level samples each followed by its members.
    /// - Complexity: O(b) for b objects, one log write and `fsync`, plus any memtable flushes.
    public mutating func insert(_ objects: [StoredHealthSample]) throws {
        try core.state.withLock { state throws in try state.insert(objects) }
    }

    /// Stores `objects` with the series kept beside them: each series in the change's log record, and in a block
    /// of its own once its row is written to a segment, read only when asked for (``series(ofSampleWith:)``).
    /// - Throws: As ``insert(_:)``; ``SegmentedBackendError/unexpectedSeries(index:)`` when a series names no
    ///   top-level sample of the batch or is not of its type's kind, or the batch holds a sample whose type keeps
    ///   no series.
    /// - Complexity: O(b + series size) for b objects, one log write and `fsync`, plus any memtable flushes.
    public mutating func insert(_ objects: [StoredHealthSample], series: [UUID: HealthSampleSeries]) throws {
        try core.state.withLock { state throws in try state.insert(objects, series: series) }
    }

    /// - Throws: ``SegmentedBackendError/noSampleForSeries(_:)`` when no live top-level sample of the series'
    ///   kind has `uuid`, or the series is empty or of a kind that takes no additions; ``FileStoreError`` as
    ///   ``insert(_:)`` does, or for damage met reading the sample and its series (nothing changed then).
    /// - Complexity: a look-up, the series kept read and joined with `series` (held in the memtable until
    ///   flushed), one log write and `fsync`.
    public mutating func add(_ series: HealthSampleSeries, toSampleWith uuid: UUID) throws {
        try core.state.withLock { state throws in try state.add(series, toSampleWith: uuid) }
    }

    /// - Complexity: ``sample(withUUID:)``'s look-up, then one block read and decode for a series on disk.
    public func series(ofSampleWith uuid: UUID) -> HealthSampleSeries? {
        core.state.withLock { state in
            state.answering(nil) { state throws(FileStoreError) in try state.series(ofSampleWith: uuid) }
        }
    }

    /// - Throws: ``FileStoreError`` as ``insert(_:)`` does, or for damage met looking the objects up (nothing
    ///   changed then).
    /// - Complexity: a look-up per object, one log write and `fsync`, plus any memtable flushes.
    public mutating func delete(_ objects: [HealthSample]) throws {
        try core.state.withLock { state throws(FileStoreError) in try state.delete(objects) }
    }

    /// Flushes every memtable to a segment and starts a new, empty log.
    /// - Throws: The file system's error; ``FileStoreError/unusable(after:)`` once the backend has failed.
    public func checkpoint() throws(FileStoreError) {
        try core.state.withLock { state throws(FileStoreError) in try state.checkpoint() }
    }

    /// Closes the log and the lock; later changes throw ``FileStoreError/closed``. Nothing is flushed: the log
    /// already holds every change.
    public func close() {
        core.state.withLock { $0.close() }
    }

    /// The bytes the storages keep in memory, as they count them (``SegmentedTypeStorage/residentBytes``), and the
    /// filter of the UUIDs they hold (``HeldKeyFilter``).
    var residentBytes: Int {
        core.state.withLock { $0.storages.values.reduce($0.heldKeys.bytes) { $0 + $1.residentBytes } }
    }

    /// The bytes the memtables hold, sealed ones included, as they count them (``SegmentMemtable/bytes``).
    var memtableBytes: Int { core.state.withLock { $0.storages.values.reduce(0) { $0 + $1.heldBytes } } }

    /// The versions each type's memtable holds, a sealed one's aside (for tests).
    var memtableCounts: [HealthObjectType: Int] {
        core.state.withLock { $0.storages.mapValues(\.memtable.count) }
    }

    /// The segments each type has, counting the one a sealed memtable is being written as (for tests).
    var segmentCounts: [HealthObjectType: Int] {
        core.state.withLock { $0.storages.mapValues { $0.segments.count + ($0.sealed == nil ? 0 : 1) } }
    }

    /// The current log's generation and length in bytes (for tests).
    var log: (generation: UInt64, length: Int)? { core.state.withLock { $0.log.map { ($0.generation, $0.length) } } }
}

/// What opening a ``SegmentedHealthStoreBackend`` found.
public struct SegmentedBackendRecovery: Sendable, Equatable {
    /// The log generations read, in order.
    public let logGenerations: [UInt64]
    /// The changes replayed from them (each batch one, whether the segments already held it or not).
    public let replayedChanges: Int
    /// The change cut short at the end of the newest log, which was never acknowledged; the log now ends before it.
    public let tornTail: FileStoreRecovery.TornTail?
    /// Set when the history file (its fingerprints by batch) was missing from a directory whose logs start after
    /// change 0: the history now starts after this change, and checkpoints up to it are not vouched for
    /// (``HealthChangeHistory/mismatch(with:)`` answers ``HealthHistoryMismatch/rewritten(sequence:)``, so a sync
    /// sends everything again rather than trusting them).
    public let historyRestarted: UInt64?
    /// The backend's own files an interrupted step left, removed by this opening (sorted): temporary files of a
    /// flush, merge, log rotation or rewrite, and segments a finished merge had replaced. Only names the backend
    /// generates; a file that could not be removed is not listed, and the next opening tries again.
    public let removedFiles: [String]
    /// What a repairing opening (``FileStoreRecoveryMode/repair``) could not keep, one report per damaged segment
    /// (``FileStoreRepair/samplesLost`` is 0 for a segment whose index did not read: how many rows it held is
    /// unknown). Empty without a repair, or when nothing was damaged.
    public let repairs: [FileStoreRepair]
    /// Where the repair kept each damaged segment, relative to the directory (`damaged/…`), in the order of
    /// ``repairs``.
    public let movedAside: [String]
}

/// Why a ``SegmentedHealthStoreBackend`` refused a batch it was handed.
public enum SegmentedBackendError: Error, Equatable, CustomStringConvertible {
    /// The object at `index` is not where the batch's shape puts it: a correlation's members must follow it, in
    /// the order ``HealthSaveRules/flattened(_:)`` gives, each naming it, and nothing else may name a correlation.
    case unexpectedMember(index: Int)
    /// The batch's top-level sample at `index` (`count`: none) does not fit the series handed with the batch: its
    /// type keeps no series, or its series is of another kind, or a series names no top-level sample of the batch.
    case unexpectedSeries(index: Int)
    /// No live top-level sample with the UUID keeps series of the kind added, or the series cannot be added (empty,
    /// or of a kind kept only with its sample).
    case noSampleForSeries(UUID)

    /// The refusal, in words.
    public var description: String {
        switch self {
        case .unexpectedMember(let index):
            "object \(index) of the batch is not the correlation member expected there"
        case .unexpectedSeries(let index):
            "top-level sample \(index) of the batch does not fit the series handed with it"
        case .noSampleForSeries(let uuid):
            "no live sample \(uuid) takes the series added to it"
        }
    }
}

/// The backend's state behind its lock.
/// - Note: Sendable: every stored property is immutable or the lock itself.
final class SegmentedBackendCore: Sendable {
    let recovery: SegmentedBackendRecovery
    let state: LockedState<SegmentedBackendState>

    deinit {
        // A backend dropped without `close()` still lets its segment writes finish before its lock goes.
        state.withLock { state in try? state.finishFlushes() }
    }

    init(
        directory: FileSystemPath, fileSystem: any StoreFileSystem, memtableLimit: SegmentMemtableLimit,
        memtableBudget: Int, logLimit: Int, compactionFanout: Int, repair: Bool
    ) throws(FileStoreError) {
        let opened = try SegmentedBackendState.open(
            directory: directory, fileSystem: fileSystem, memtableLimit: memtableLimit,
            memtableBudget: memtableBudget, logLimit: logLimit,
            compactionFanout: compactionFanout, repair: repair)
        recovery = opened.recovery
        state = LockedState(opened.state)
    }
}

extension SegmentedHealthStoreBackend: PreparedInsertBackend {
    /// The log's insert record of `samples` (``MutationCodec/framedRecords(_:recordSize:)``): it depends only on
    /// the samples, not on the store.
    /// - Throws: ``FileStoreError/recordTooLarge(bytes:limit:)``.
    /// - Complexity: O(encoded size).
    package static func framedLog(inserting samples: [HealthSample]) throws -> [UInt8] {
        try MutationCodec.framedRecords(.insert(samples))
    }

    /// - Throws: As ``insert(_:)``.
    /// - Complexity: As ``insert(_:)``, without encoding the batch.
    package mutating func insert(_ objects: [StoredHealthSample], framedLog: [UInt8]) throws {
        try core.state.withLock { state throws in try state.insert(objects, framedLog: framedLog) }
    }
}
