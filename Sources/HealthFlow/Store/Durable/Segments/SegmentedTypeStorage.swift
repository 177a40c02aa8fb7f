import Foundation

/// One type's samples kept on disk: a bounded memtable of the newest changes plus immutable segment files
/// (``SegmentFormat``), so memory holds the memtable and, per segment, its block index and Bloom filter — about
/// 2 bytes a row — never the segments' samples.
///
/// Every change is a **version** of a sample's UUID: an insertion is a live version, a deletion a tombstone
/// (the deleted sample with the deletion's sequence number). The newest version of a UUID — the memtable's, else
/// the one in the newest segment holding it — is the one look-ups and date ranges see; older versions are
/// *shadowed* and skipped (found with the newer segments' Bloom filters, then their UUID columns). Anchored
/// queries also report every deletion kept, shadowed or not, as the in-memory store reports every deletion: a
/// UUID deleted and inserted again reports both. A segment's UUID column holds each UUID's newest row in it only;
/// an older deletion of the same UUID there is reached through the sequence column. Change sequence numbers only
/// grow: every change passed in has a larger number than every change stored.
///
/// Files: the storage reads, writes and removes only names ``SegmentName`` generates for its type, in
/// `directory`. A flush or compaction makes its segment atomically (``SegmentFileMaker``). Opening rebuilds the
/// segment list from those names; the memtable is not durable (the store's journal is what keeps its changes).
///
/// A full memtable is **sealed** (``flushIfFull()``) and written as the next segment on the ``flusher``'s thread
/// while the memtable takes new changes; reads see the sealed rows — newer than every segment, older than the
/// memtable — until ``installSealed(waiting:)`` puts the segment in place. One memtable a type is sealed at a time.
///
/// Not thread-safe: the store uses it under its lock; the flusher reads only the sealed memtable, never changed.
final class SegmentedTypeStorage {
    let type: HealthObjectType
    let directory: FileSystemPath
    let memtableLimit: SegmentMemtableLimit
    let fileSystem: any StoreFileSystem
    /// Look-up column entries a segment's writer holds before spilling them to its scratch file
    /// (``SegmentWriter``): what bounds a compaction's memory whatever its row count.
    let writerRunLength: Int
    private(set) var memtable = SegmentMemtable()
    /// A full memtable being written as the next segment (``SegmentMemtableWrite``): newer than every segment,
    /// older than ``memtable``, seen by every read until the segment is put in place.
    private(set) var sealed: SegmentMemtableWrite?
    /// Where a sealed memtable is written, `nil` to write it on the thread that seals it.
    let flusher: SegmentFlusher?
    /// The segments, oldest first (by the segment numbers they cover).
    private(set) var segments: [Segment]
    /// The largest change sequence number stored (0 when none).
    private(set) var lastSequence: UInt64
    /// What opening removed: leftover temporary files and segments a compacted one supersedes.
    let removedOnOpening: [String]
    /// The store's filter of every UUID held, shared by its types' storages: each row the memtable takes is added.
    let heldKeys: HeldKeyFilter?

    /// A segment in use: its name and open reader.
    struct Segment {
        let name: SegmentName
        let reader: SegmentReader
    }

    /// Opens the storage of `type` in `directory` (which must exist), rebuilding the segment list from the files:
    /// each segment's footer, index and Bloom filter are read and checked, no sample is. A segment whose range
    /// another's covers (``SegmentName``) is superseded: it is removed unread once the covering one has opened, as
    /// are leftover temporary segment files of the type. The memtable starts empty.
    /// - Throws: `FileStoreError.corruptFile` naming the damaged segment and offset (nothing is removed then), or
    ///   the file system's error.
    /// - Complexity: O(s² + total index size) for s segment files.
    init(
        type: HealthObjectType, directory: FileSystemPath, fileSystem: any StoreFileSystem,
        memtableLimit: SegmentMemtableLimit = .standard, writerRunLength: Int = SegmentWriter.standardRunLength,
        heldKeys: HeldKeyFilter? = nil, flusher: SegmentFlusher? = nil
    ) throws(FileStoreError) {
        self.heldKeys = heldKeys
        self.flusher = flusher
        self.writerRunLength = max(1, writerRunLength)
        self.type = type
        self.directory = directory
        self.fileSystem = fileSystem
        self.memtableLimit = memtableLimit
        let found = try SegmentDirectoryScan(type: type, directory: directory, fileSystem: fileSystem)
        var opened: [Segment] = []
        for name in found.current {
            let reader = try SegmentReader(
                file: try fileSystem.openFileForReading(at: directory.appending(name.fileName)), name: name.fileName)
            guard reader.type == type else {
                throw .corruptFile(
                    name: name.fileName, offset: 0,
                    problem: .inconsistent(
                        "its rows are of type \(reader.type.identifier), its name says \(type.identifier)"))
            }
            opened.append(Segment(name: name, reader: reader))
        }
        segments = opened
        lastSequence = opened.map { $0.reader.rowCount == 0 ? 0 : $0.reader.sequences.upperBound }.max() ?? 0
        var removed: [String] = []
        for name in found.leftovers {
            if (try? fileSystem.removeFile(at: directory.appending(name))) != nil { removed.append(name) }
        }
        if !removed.isEmpty { try? fileSystem.syncDirectory(at: directory) }
        removedOnOpening = removed
    }

    /// The bytes the storage keeps in memory, as it counts them: the memtables' encoded size (the one taking
    /// changes and the one sealed, if any), and per segment its block index and Bloom filter
    /// (``SegmentReader/residentBytes``) plus ``segmentOverhead`` — O(memtables + segments + Bloom bits + blocks),
    /// about 2.5 bytes a row on disk; no sample of a segment is held.
    var residentBytes: Int {
        heldBytes + segments.reduce(0) { $0 + $1.reader.residentBytes + Self.segmentOverhead }
    }

    /// The bytes the memtable and the sealed one, if any, hold (``SegmentMemtable/bytes``): what the store's
    /// memory budget counts.
    var heldBytes: Int { memtable.bytes + (sealed?.rows.bytes ?? 0) }

    /// What a segment costs besides its index and filter: an allowance for the reader object, its name and open
    /// file, in bytes.
    static let segmentOverhead = 512

    // MARK: Changes

    /// Stores live samples, each the newest version of its UUID (a stored UUID is replaced: its older version is
    /// shadowed), then flushes the memtable when it reaches ``memtableLimit``.
    /// - Precondition: As ``put(_:)``'s, for each row.
    /// - Returns: Whether a segment was put in place.
    /// - Throws: A failed flush's error; the rows are stored either way, and stay in the memtable.
    /// - Complexity: O(b) for b rows, plus a flush's.
    @discardableResult
    func insert(_ rows: [SegmentRow]) throws(FileStoreError) -> Bool {
        for row in rows { put(row) }
        return try flushIfFull()
    }

    /// Stores a live sample as the newest version of its UUID in the memtable, which may then be past
    /// ``memtableLimit`` until ``flushIfFull()``.
    /// - Precondition: The row is of ``type``, not a deletion, and its sequence is larger than ``lastSequence``.
    /// - Complexity: O(1), amortized.
    func put(_ row: consuming SegmentRow) {
        precondition(row.entry.sample.type == type && !row.isDeletion, "inserting a row of another type or a deletion")
        precondition(row.entry.sequence > lastSequence, "sequence \(row.entry.sequence) after \(lastSequence)")
        lastSequence = row.entry.sequence
        heldKeys?.insert(UUIDKey(row.entry.sample.uuid))
        memtable.put(row)
    }

    /// Calls `body` with every UUID the memtables and the segments hold, live or deleted; a UUID held by more than
    /// one may come more than once.
    /// - Throws: Damage in a segment's UUID blocks, or the file system's error.
    func forEachHeldKey(_ body: (UUIDKey) -> Void) throws(FileStoreError) {
        memtable.forEachKey(body)
        sealed?.rows.forEachKey(body)
        for segment in segments { try segment.reader.forEachKey(body) }
    }

    /// How many UUIDs ``forEachHeldKey(_:)`` reaches, at most.
    var heldKeyCount: Int {
        memtable.count + (sealed?.rows.count ?? 0) + segments.reduce(0) { $0 + $1.reader.rowCount }
    }

    /// The newest version of `key` in memory: the memtable's, else the sealed memtable's.
    /// - Complexity: O(1).
    func heldVersion(of key: UUIDKey) -> SegmentRow? {
        memtable.version(of: key) ?? sealed?.rows.version(of: key)
    }

    /// The live rows in memory starting in `lowerStart..<upperStart` and ending at or after `lowerEnd`, in
    /// `(start, sequence)` order: the memtable's, and the sealed memtable's whose UUID the memtable holds no
    /// version of.
    /// - Complexity: O(m + r log r) for m versions held and r matches.
    func heldLiveRows(
        startingFrom lowerStart: Double?, below upperStart: Double?, endingAtOrAfter lowerEnd: Double?
    ) -> [SegmentRow] {
        let newer = memtable.liveRows(startingFrom: lowerStart, below: upperStart, endingAtOrAfter: lowerEnd)
        guard let sealed else { return newer }
        let older = sealed.rows.liveRows(startingFrom: lowerStart, below: upperStart, endingAtOrAfter: lowerEnd)
            .filter { memtable.version(of: UUIDKey($0.entry.sample.uuid)) == nil }
        guard !older.isEmpty else { return newer }
        return (older + newer).sorted { ($0.entry.start, $0.entry.sequence) < ($1.entry.start, $1.entry.sequence) }
    }

    /// The versions in memory after `sequence`, in sequence order, as one memtable holding both would keep them:
    /// the sealed memtable's (every deletion, and each live row whose UUID the memtable holds no version of), then
    /// the memtable's, all newer.
    /// - Complexity: O(m + r log r) for m versions held and r returned.
    func heldRows(after sequence: UInt64) -> [SegmentRow] {
        let newer = memtable.rows(after: sequence)
        guard let sealed else { return newer }
        let older = sealed.rows.rows(after: sequence).filter {
            $0.isDeletion || memtable.version(of: UUIDKey($0.entry.sample.uuid)) == nil
        }
        return older + newer
    }

    /// Deletes the live sample `uuid` as change `sequence`: its tombstone becomes the UUID's newest version.
    /// - Precondition: `sequence` is larger than ``lastSequence``.
    /// - Returns: The deleted row, or `nil` when no live sample has `uuid` (nothing changes, `sequence` is unused).
    /// - Throws: Damage found looking the sample up, or a failed flush's error (the deletion is stored either way).
    /// - Complexity: a ``row(withUUID:)`` look-up, plus a flush's.
    @discardableResult
    func delete(_ uuid: UUID, sequence: UInt64) throws(FileStoreError) -> SegmentRow? {
        precondition(sequence > lastSequence, "sequence \(sequence) after \(lastSequence)")
        guard let live = try row(withUUID: uuid) else { return nil }
        lastSequence = sequence
        memtable.put(
            SegmentRow(
                entry: IndexedSample(
                    sample: live.entry.sample, start: live.entry.start, end: live.entry.end, sequence: sequence,
                    isOwned: live.entry.isOwned),
                correlation: live.correlation, isDeletion: true))
        _ = try flushIfFull()
        return live
    }

    /// Writes the memtable as a new segment and empties it, after the sealed memtable's segment, if any, is in
    /// place; nothing is written when the memtable is empty. Returns once both segments are in use.
    /// - Throws: The file system's error, with the rows kept in the memtable and no segment name written
    ///   (``installSealed(waiting:)``). When only the directory flush after the rename fails, the segment is in use
    ///   and the memtable emptied, and that error is thrown: the segment's name may not survive a crash (the store
    ///   then stops accepting changes, as it does after a failed journal flush).
    /// - Complexity: O(m log m) for m memtable rows, written once.
    func flush() throws(FileStoreError) {
        try installSealed(waiting: true)
        guard !memtable.isEmpty else { return }
        try sealAndWrite(inline: true)
    }

    /// When the memtable has reached ``memtableLimit``, seals it and starts writing it as the next segment: on the
    /// ``flusher`` (the segment is put in place by a later call, ``installSealed(waiting:)``), or here when there
    /// is none. A memtable sealed before and still being written is waited for and put in place first: one
    /// sealed memtable at a time.
    /// - Returns: Whether a segment was put in place.
    /// - Throws: The error of the write waited for (``installSealed(waiting:)``): the memtable is then not sealed.
    func flushIfFull() throws(FileStoreError) -> Bool {
        guard memtable.isFull(memtableLimit) else { return false }
        return try startFlush()
    }

    /// Seals the memtable, unless it is empty, and starts writing it as the next segment, as ``flushIfFull()``
    /// does a full one.
    /// - Returns: Whether a segment was put in place.
    /// - Throws: As ``flushIfFull()``.
    func startFlush() throws(FileStoreError) -> Bool {
        guard !memtable.isEmpty else { return false }
        let installed = try installSealed(waiting: true)
        return try sealAndWrite(inline: false) || installed
    }

    /// Seals the memtable and writes it as the next segment: on the ``flusher``, or here — then putting it in
    /// place — when `inline` or there is none.
    /// - Returns: Whether the segment was put in place here.
    @discardableResult
    private func sealAndWrite(inline: Bool) throws(FileStoreError) -> Bool {
        let write = seal()
        guard let flusher, !inline else {
            write.run()
            return try installSealed(waiting: true)
        }
        flusher.start(write)
        return false
    }

    /// Puts the sealed memtable's segment in its place once written — waiting for the write, or only when it has
    /// finished — and hands the sealed rows to the flusher to free.
    /// - Returns: Whether a segment was put in place.
    /// - Throws: The write's error: its rows go back into the memtable, older than every row put since, and no
    ///   file has the segment's name. When only the directory flush after the rename failed, the segment is in
    ///   use and that error is thrown.
    @discardableResult
    func installSealed(waiting: Bool) throws(FileStoreError) -> Bool {
        guard let write = sealed, waiting || write.isFinished else { return false }
        switch write.wait() {
        case .made(let made):
            sealed = nil
            segments.append(Segment(name: write.name, reader: made.reader))
            flusher?.release(write)
            if let failure = made.directoryFlushFailure { throw failure }
            return true
        case .failed(let error):
            sealed = nil
            var restored = write.rows
            restored.putNewer(memtable)
            memtable = restored
            throw error
        }
    }

    /// Seals the memtable as the next segment's rows, leaving an empty memtable.
    private func seal() -> SegmentMemtableWrite {
        precondition(sealed == nil, "sealing a memtable while another is being written")
        let number = (segments.last?.name.last ?? 0) + 1
        let write = SegmentMemtableWrite(
            name: SegmentName(type: type, first: number, last: number), rows: memtable, newestSequence: lastSequence,
            maker: SegmentFileMaker(directory: directory, fileSystem: fileSystem, runLength: writerRunLength))
        memtable = SegmentMemtable()
        sealed = write
        return write
    }

    // MARK: Look-ups

    /// The live sample `uuid` with its keys, or `nil` when it was never stored or its newest version is a
    /// deletion.
    /// - Complexity: O(1) in the memtable; then per segment, newest first, a Bloom filter check, and for a
    ///   segment that may hold it one UUID block and one row block read.
    func row(withUUID uuid: UUID) throws(FileStoreError) -> SegmentRow? {
        if let version = heldVersion(of: UUIDKey(uuid)) { return version.isDeletion ? nil : version }
        for segment in segments.reversed() {
            if let version = try segment.reader.row(withUUID: uuid) { return version.isDeletion ? nil : version }
        }
        return nil
    }

    /// The keys among `keys` whose newest version here is live (as ``row(withUUID:)`` finds them), without
    /// decoding a sample.
    /// - Complexity: O(k) in the memtable for k keys; then per segment, newest first, the Bloom filter for each key
    ///   not found yet, and one read of each UUID block and row block holding one of them (a row block's keys
    ///   only).
    func liveKeys(among keys: [UUIDKey]) throws(FileStoreError) -> [UUIDKey] {
        var live: [UUIDKey] = []
        // Each key's filter hashes are computed once, for every segment.
        var pending: [BloomFilter.Probe] = []
        for key in keys {
            if let version = heldVersion(of: key) {
                if !version.isDeletion { live.append(key) }
            } else {
                pending.append(BloomFilter.Probe(key))
            }
        }
        for segment in segments.reversed() where !pending.isEmpty {
            let located = try segment.reader.rows(ofProbes: pending)
            guard !located.isEmpty else { continue }
            let deletions = try segment.reader.deletionFlags(ofRows: located.map(\.row))
            for (index, entry) in located.enumerated() where !deletions[index] { live.append(entry.key) }
            let held = Set(located.lazy.map(\.key))
            pending.removeAll { held.contains($0.key) }
        }
        return live
    }

    /// The live rows of the samples with `uuids` (deleted and unknown UUIDs have none), in no particular order.
    /// - Complexity: O(k) in the memtable for k UUIDs; then per segment, newest first, the Bloom filter for
    ///   each UUID not found yet, and one read of each UUID block and row block holding one of them (a row block
    ///   decoded once per call, not once per UUID).
    func rows(withUUIDs uuids: some Sequence<UUID>) throws(FileStoreError) -> [SegmentRow] {
        var found: [SegmentRow] = []
        var pending: [UUID] = []
        for uuid in uuids {
            if let version = heldVersion(of: UUIDKey(uuid)) {
                if !version.isDeletion { found.append(version) }
            } else {
                pending.append(uuid)
            }
        }
        for segment in segments.reversed() where !pending.isEmpty {
            let located = try segment.reader.rows(of: pending)
            found += try segment.reader.rows(holding: located).filter { !$0.isDeletion }
            let held = Set(located.map(\.uuid))
            pending.removeAll { held.contains($0) }
        }
        return found
    }

    /// Whether the version of `uuid` in segment `index` is its newest: no later segment holds the UUID and,
    /// unless `consultingMemtable` is `false`, neither does the memtable.
    /// - Complexity: a Bloom filter check per later segment, and a UUID block read for each that may hold it.
    func isNewest(_ uuid: UUID, inSegment index: Int, consultingMemtable: Bool = true) throws(FileStoreError) -> Bool {
        if consultingMemtable, heldVersion(of: UUIDKey(uuid)) != nil { return false }
        for later in segments.indices.dropFirst(index + 1) {
            if try segments[later].reader.row(of: uuid) != nil { return false }
        }
        return true
    }

    /// Puts `segment` in place of every segment it covers (a compaction's result), returning those replaced.
    func replaceSegments(coveredBy segment: Segment) -> [Segment] {
        let replaced = segments.filter { segment.name.covers($0.name) }
        segments.removeAll { segment.name.covers($0.name) }
        let slot = segments.partitioningIndex { $0.name.last > segment.name.last }
        segments.insert(segment, at: slot)
        return replaced
    }
}
