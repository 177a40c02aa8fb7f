/// The fingerprints of a ``SegmentedHealthStoreBackend``'s change history (``HealthHistoryCheckpoint``): the wrapping
/// sum of ``HistoryMix`` over every change numbered up to a batch's last, for every batch since `origin`, so a
/// checkpoint taken at any batch's end can be checked later — after merges have dropped the rows of versions a
/// newer one shadows, which the segments alone could no longer sum.
///
/// The batches of the logs in use are held in memory (16 bytes each; a log holds at most about
/// ``SegmentedHealthStoreBackend/standardLogLimit`` bytes of changes); before a log rotation lets go of them they are
/// written to the history file, which is rewritten whole under a temporary name and renamed into place, so a crash
/// leaves the old file or the new one. Look-ups binary-search the file with `pread`: nothing of it stays in memory.
///
/// ```text
/// file   = magic:8 origin:entry entry*             (the origin's fingerprint is 0)
/// entry  = sequence:u64 fingerprint:u64 crc:u32 zero:u32       (little-endian; crc over the 16 bytes before it)
/// ```
///
/// `origin` is the sequence the sums start after: 0 for a backend created with its history, or the first sequence
/// of the oldest log when the file was missing (a directory written before the file existed): the history before
/// it is unknown, and checkpoints inside it are not vouched for.
struct SegmentHistory {
    static let fileName = "segments-history.hfh"
    static let magic: [UInt8] = Array("HFHIST01".utf8)
    static let headerSize = 32
    static let entrySize = 24

    let directory: FileSystemPath
    let fileSystem: any StoreFileSystem
    /// The sums start after this sequence.
    private(set) var origin: UInt64
    /// The fingerprint through the last change summed.
    private(set) var fingerprint: UInt64
    /// The last entry in the file (or the origin, with fingerprint 0), and the file's entries.
    private var written: (sequence: UInt64, fingerprint: UInt64)
    private var writtenCount: Int
    /// The batches summed since the file was written, in sequence order.
    private var pending: [(sequence: UInt64, fingerprint: UInt64)] = []

    /// Reads the file's origin and last entry, or starts a history at `origin` when there is no file.
    /// - Returns: The history, and whether it was restarted: no file, and changes before `origin` (their
    ///   fingerprints are unknown, so checkpoints among them are not vouched for).
    /// - Throws: ``FileStoreError/corruptFile(name:offset:problem:)`` for a file that is not a history, is cut
    ///   inside an entry, or whose origin or last entry does not match its checksum; the file system's error.
    /// - Parameter names: The names in `directory`, as opening the backend listed them.
    static func open(
        directory: FileSystemPath, names: [String], fileSystem: any StoreFileSystem, origin: UInt64
    ) throws(FileStoreError) -> (history: SegmentHistory, restarted: Bool) {
        guard names.contains(fileName) else {
            let history = SegmentHistory(
                directory: directory, fileSystem: fileSystem, origin: origin, last: (origin, 0), count: 0)
            return (history, origin > 0)
        }
        let file = try fileSystem.openFileForReading(at: directory.appending(fileName))
        defer { file.close() }
        let size = try file.size()
        guard size >= headerSize, (size - headerSize) % entrySize == 0 else {
            throw .corruptFile(name: fileName, offset: min(size, headerSize), problem: .truncated)
        }
        let header = try file.read(count: headerSize, at: 0)
        guard Array(header[0..<8]) == magic else {
            throw .corruptFile(name: fileName, offset: 0, problem: .notAStoreFile)
        }
        guard let start = entry(header, at: 8) else {
            throw .corruptFile(name: fileName, offset: 8, problem: .payloadChecksumMismatch)
        }
        let count = (size - headerSize) / entrySize
        var last = (sequence: start.sequence, fingerprint: UInt64(0))
        if count > 0 {
            let offset = headerSize + (count - 1) * entrySize
            guard let entry = entry(try file.read(count: entrySize, at: offset), at: 0) else {
                throw .corruptFile(name: fileName, offset: offset, problem: .payloadChecksumMismatch)
            }
            last = entry
        }
        let history = SegmentHistory(
            directory: directory, fileSystem: fileSystem, origin: start.sequence, last: last, count: count)
        return (history, false)
    }

    private init(
        directory: FileSystemPath, fileSystem: any StoreFileSystem, origin: UInt64,
        last: (sequence: UInt64, fingerprint: UInt64), count: Int
    ) {
        self.directory = directory
        self.fileSystem = fileSystem
        self.origin = origin
        written = last
        writtenCount = count
        fingerprint = last.fingerprint
    }

    /// Starts the history again after `origin`, forgetting every batch, and writes the file with no entry: what
    /// was summed no longer describes what the store holds (a repair lost rows), so no checkpoint up to `origin`
    /// is vouched for.
    /// - Throws: The file system's error; the old file is in place then (unless only the directory flush failed).
    mutating func restart(at origin: UInt64) throws(FileStoreError) {
        self.origin = origin
        written = (origin, 0)
        writtenCount = 0
        pending = []
        fingerprint = 0
        try persist()
    }

    /// The origin a repair writes before it changes any segment (``markRestartPending(directory:fileSystem:)``):
    /// no checkpoint is vouched for until the next opening restarts the history after its last change.
    static let restartPending = UInt64.max

    /// Whether a repair left the history to restart (``restartPending``): the opening restarts it.
    var isRestartPending: Bool { origin == Self.restartPending }

    /// Writes the history file with origin ``restartPending`` and no entry, before a repair changes any segment:
    /// from then on no checkpoint is vouched for, and whichever opening comes next — this repair's, or the one
    /// after a crash in the middle of it — restarts the history after its last change and reports it.
    /// - Throws: The file system's error; the old file is in place then (and no segment has been changed).
    static func markRestartPending(directory: FileSystemPath, fileSystem: any StoreFileSystem) throws(FileStoreError) {
        var history = SegmentHistory(
            directory: directory, fileSystem: fileSystem, origin: restartPending, last: (restartPending, 0), count: 0)
        try history.persist()
    }

    /// The last change the file holds a batch's end for (the origin when it holds none).
    var writtenThrough: UInt64 { written.sequence }

    /// Adds a batch whose changes' mixes sum to `sum` and whose last change is `sequence`; a batch the file already
    /// covers (a log replayed again after the file was written, before the log was removed) adds nothing.
    mutating func add(batch sum: UInt64, through sequence: UInt64) {
        guard sequence > (pending.last?.sequence ?? written.sequence) else { return }
        fingerprint &+= sum
        pending.append((sequence, fingerprint))
    }

    /// The fingerprint through `sequence` when a batch ended there since the origin (or it is the origin); `nil`
    /// when no batch did, or it lies before the origin.
    /// - Throws: Damage met reading the file.
    /// - Complexity: O(log b) for b batches: a binary search in memory, or `pread`s of the file.
    func fingerprint(through sequence: UInt64) throws(FileStoreError) -> UInt64? {
        if sequence == origin { return 0 }
        guard sequence > origin else { return nil }
        if sequence > written.sequence {
            let index = pending.partitioningIndex { $0.sequence >= sequence }
            return index < pending.count && pending[index].sequence == sequence ? pending[index].fingerprint : nil
        }
        if sequence == written.sequence { return written.fingerprint }
        let file = try fileSystem.openFileForReading(at: directory.appending(Self.fileName))
        defer { file.close() }
        var low = 0
        var high = writtenCount
        while low < high {
            let middle = (low + high) / 2
            let offset = Self.headerSize + middle * Self.entrySize
            guard let entry = Self.entry(try file.read(count: Self.entrySize, at: offset), at: 0) else {
                throw .corruptFile(name: Self.fileName, offset: offset, problem: .payloadChecksumMismatch)
            }
            if entry.sequence == sequence { return entry.fingerprint }
            if entry.sequence < sequence { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Writes the batches held into the file: the old file's entries and these, under a temporary name, flushed,
    /// renamed into place and the directory flushed. Call before a log rotation lets go of their log.
    /// - Throws: The file system's error, or damage in the old file; the old file is in place then (unless only
    ///   the directory flush failed) and the batches are still held.
    /// - Complexity: O(b) for b batches in all: the old entries are copied, 1 MiB at a time. Rotations follow the
    ///   log (about every ``SegmentedHealthStoreBackend/standardLogLimit`` bytes of changes, or whenever every
    ///   memtable is flushed), so a backend written in batches of one sample copies its whole history every few
    ///   thousand batches.
    mutating func persist() throws(FileStoreError) {
        guard !pending.isEmpty || writtenCount == 0 else { return }
        let fileSystem = fileSystem
        let path = directory.appending(Self.fileName)
        let (origin, writtenCount, pending) = (origin, writtenCount, pending)
        try fileSystem.replaceFile(named: Self.fileName, in: directory) { target throws(FileStoreError) in
            var header = Self.magic
            Self.append((origin, 0), to: &header)
            try target.write(header, at: 0)
            var offset = header.count
            if writtenCount > 0 {
                let source = try fileSystem.openFileForReading(at: path)
                defer { source.close() }
                let total = writtenCount * Self.entrySize
                var copied = 0
                while copied < total {
                    let chunk = try source.read(count: min(1 << 20, total - copied), at: Self.headerSize + copied)
                    try target.write(chunk, at: offset)
                    offset += chunk.count
                    copied += chunk.count
                }
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(pending.count * Self.entrySize)
            for entry in pending { Self.append(entry, to: &bytes) }
            try target.write(bytes, at: offset)
        }
        self.writtenCount += pending.count
        if let last = pending.last { written = last }
        self.pending = []
    }

    /// The entry at `base` of `bytes` (the origin's, in the header), when its checksum matches.
    private static func entry(_ bytes: [UInt8], at base: Int) -> (sequence: UInt64, fingerprint: UInt64)? {
        guard bytes.count >= base + entrySize,
            CRC32.checksum(bytes, in: base..<(base + 16))
                == bytes.withUnsafeBytes({
                    UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: base + 16, as: UInt32.self))
                })
        else { return nil }
        return bytes.withUnsafeBytes {
            (
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: base, as: UInt64.self)),
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: base + 8, as: UInt64.self))
            )
        }
    }

    private static func append(_ entry: (sequence: UInt64, fingerprint: UInt64), to bytes: inout [UInt8]) {
        let start = bytes.count
        withUnsafeBytes(of: entry.sequence.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: entry.fingerprint.littleEndian) { bytes.append(contentsOf: $0) }
        let checksum = CRC32.checksum(bytes, in: start..<(start + 16))
        withUnsafeBytes(of: checksum.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [0, 0, 0, 0])
    }
}
