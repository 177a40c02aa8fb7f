import Foundation

/// The write-ahead log of a ``SegmentedHealthStoreBackend``: the changes its memtables hold and no segment does
/// yet, in the journal's format (``StoreLayout/journalMagic``, a ``StoreFileHeader`` record, then insert and
/// delete records framed by ``RecordFrame``, a change too large for one record split as
/// ``MutationCodec/framedRecords(_:recordSize:)`` splits it).
///
/// ```text
/// segment-log-<generation: 16 hex digits>.hfj     the log; the highest generation is appended to
/// .healthflow-segment-log-….hfj.tmp               a log being created (removed by the next opening)
/// ```
///
/// An insert record holds the top-level samples of one batch: each takes the next sequence number, and a
/// correlation's members (``HealthSaveRules/flattened(_:)``) the numbers after it. A delete record holds the
/// UUIDs deleted, members included, each taking the next number. The header's `startSequence` is the number of
/// the last change before the log's first.
///
/// A failed write is cut back off the file and reported; a failed flush or cut leaves the tail in doubt and the
/// log refuses every later append with ``FileStoreError/unusable(after:)``.
///
/// Not thread-safe: the backend uses it under its lock.
final class SegmentLog {
    static let prefix = "segment-log-"
    /// The records a log holds: insertions (samples alone, or each with its series), series additions that
    /// announce their sample, and deletions. Any other record is damage.
    static let recordKinds: Set<RecordKind> = Set(
        [.insert, .delete] + SeriesKind.allCases.map(\.journalRecord) + SeriesKind.allCases.compactMap(\.additionRecord)
    )
    static let suffix = ".hfj"
    /// What the header names as the app: the log belongs to a segment directory, not to one app.
    static let owner = "segments"

    let fileSystem: any StoreFileSystem
    let directory: FileSystemPath
    let storeID: UUID
    private(set) var generation: UInt64
    /// Bytes of the file holding complete records (where the next record goes).
    private(set) var length: Int
    /// The length of the header: a log this long holds no change.
    private(set) var headerLength: Int
    private var file: (any StoreFile)?
    private(set) var failure: FileStoreError?

    init(
        fileSystem: any StoreFileSystem, directory: FileSystemPath, storeID: UUID, generation: UInt64,
        file: any StoreFile, length: Int, headerLength: Int
    ) {
        self.fileSystem = fileSystem
        self.directory = directory
        self.storeID = storeID
        self.generation = generation
        self.file = file
        self.length = length
        self.headerLength = headerLength
    }

    static func name(_ generation: UInt64) -> String {
        let digits = String(generation, radix: 16)
        return prefix + String(repeating: "0", count: max(0, 16 - digits.count)) + digits + suffix
    }

    /// The generation `name` is the log of, when its bytes are exactly what ``name(_:)`` writes.
    static func generation(in name: String) -> UInt64? {
        let bytes = Array(name.utf8)
        let head = Array(prefix.utf8)
        let tail = Array(suffix.utf8)
        guard bytes.count == head.count + 16 + tail.count, bytes.starts(with: head),
            bytes.reversed().starts(with: tail.reversed()),
            let number = UInt64(String(decoding: bytes[head.count..<(head.count + 16)], as: UTF8.self), radix: 16)
        else { return nil }
        return Self.name(number).utf8.elementsEqual(name.utf8) ? number : nil
    }

    /// Creates log `generation`, empty, whose changes follow `startSequence`: magic and header written to a
    /// temporary file, flushed, renamed into place, and the directory flushed.
    /// - Throws: The file system's error; the temporary file is removed then.
    static func create(
        fileSystem: any StoreFileSystem, directory: FileSystemPath, storeID: UUID, generation: UInt64,
        startSequence: UInt64
    ) throws(FileStoreError) -> SegmentLog {
        let (file, length) = try JournalCreator(
            fileSystem: fileSystem, directory: directory, appBundleIdentifier: owner, storeID: storeID
        ).create(named: Self.name(generation), generation: generation, startSequence: startSequence)
        do throws(FileStoreError) {
            try fileSystem.syncDirectory(at: directory)
        } catch {
            file.close()
            throw error
        }
        return SegmentLog(
            fileSystem: fileSystem, directory: directory, storeID: storeID, generation: generation, file: file,
            length: length, headerLength: length)
    }

    /// Appends `mutation` (an insert or a delete) and flushes it: durable once this returns.
    /// - Throws: ``FileStoreError/recordTooLarge(bytes:limit:)``, the file system's error (the records are cut
    ///   back off), or ``FileStoreError/unusable(after:)`` once a flush or cut has failed.
    /// - Complexity: O(encoded size), one write and one `fsync`.
    func append(_ mutation: StoreMutation) throws(FileStoreError) {
        // Asked before encoding: a failed or closed log says so, whatever the record's size.
        if let failure { throw .unusable(after: failure) }
        guard file != nil else { throw .closed }
        try append(framed: try MutationCodec.framedRecords(mutation))
    }

    /// Appends `records`, a mutation's framed records as ``MutationCodec/framedRecords(_:recordSize:)`` gives them
    /// (made ahead of time, off the store's lock), and flushes them: durable once this returns.
    /// - Throws: As ``append(_:)``.
    /// - Complexity: O(`records.count`), one write and one `fsync`.
    func append(framed records: [UInt8]) throws(FileStoreError) {
        if let failure { throw .unusable(after: failure) }
        guard let file else { throw .closed }
        do throws(FileStoreError) {
            try file.write(records, at: length)
        } catch {
            do throws(FileStoreError) {
                try file.truncate(to: length)
            } catch {
                failure = error
            }
            throw error
        }
        do throws(FileStoreError) {
            try file.sync()
        } catch {
            failure = error
            throw error
        }
        length += records.count
    }

    /// Starts generation + 1, empty, following `startSequence`, and removes every older log: call only when
    /// no memtable holds a change of this log (each is in a flushed segment).
    /// - Throws: The file system's error creating the new log: this one is kept and goes on, unless the new one
    ///   was renamed into place (only the directory flush failed) — then this log refuses every later append.
    ///   Failing to remove an old log is not an error: the next opening replays it and skips what the segments
    ///   hold.
    func rotate(startSequence: UInt64) throws(FileStoreError) {
        if let failure { throw .unusable(after: failure) }
        let next: SegmentLog
        do throws(FileStoreError) {
            next = try Self.create(
                fileSystem: fileSystem, directory: directory, storeID: storeID, generation: generation + 1,
                startSequence: startSequence)
        } catch {
            // Renamed into place but not known to survive a crash: a newer log must not sit beside this one while
            // it goes on growing, so this one stops.
            let names = (try? fileSystem.contentsOfDirectory(at: directory)) ?? [Self.name(generation + 1)]
            if names.contains(Self.name(generation + 1)) { failure = error }
            throw error
        }
        file?.close()
        file = next.file
        next.file = nil
        let old = generation
        generation = next.generation
        length = next.length
        headerLength = next.headerLength
        var removed = false
        for name in (try? fileSystem.contentsOfDirectory(at: directory)) ?? [] {
            if let number = Self.generation(in: name), number <= old,
                (try? fileSystem.removeFile(at: directory.appending(name))) != nil
            {
                removed = true
            }
        }
        if removed { try? fileSystem.syncDirectory(at: directory) }
    }

    func close() {
        file?.close()
        file = nil
    }
}

/// Reads one log file back: its header and its complete changes, in order.
///
/// A change whose last record is missing or damaged at the end of the newest log — what an interrupted append
/// leaves, as ``FrameScanner`` tells it — was never acknowledged: it is reported as a torn tail and not
/// replayed. Any other damage is thrown as ``FileStoreError/corruptFile(name:offset:problem:)``, never skipped.
struct SegmentLogReplay {
    let name: String
    let bytes: [UInt8]
    let generation: UInt64
    /// Whether this is the newest log (the only one that may end in a torn tail).
    let isLast: Bool

    struct Outcome {
        var header: StoreFileHeader
        /// Where the intact part ends (the log is cut back to here before appending).
        var length: Int
        var headerLength: Int
        var torn: FileStoreRecovery.TornTail?
        var changes: Int
    }

    /// Calls `apply` with the header and each complete change (an insert or a delete), in order.
    /// - Throws: Damage, or what `apply` throws.
    /// - Complexity: O(file size).
    func run(_ apply: (StoreFileHeader, StoreMutation) throws(FileStoreError) -> Void) throws(FileStoreError)
        -> Outcome
    {
        let magic = StoreLayout.journalMagic
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            throw .corruptFile(name: name, offset: 0, problem: .notAStoreFile)
        }
        let scanner = FrameScanner(bytes: bytes)
        // A log is renamed into place with its header flushed: anything wrong with the header is damage.
        guard case .record(.header, let payload, let afterHeader, false) = scanner.scan(at: magic.count) else {
            throw .corruptFile(name: name, offset: magic.count, problem: .undecodable("the log has no header"))
        }
        var headerReader = BinaryReader(bytes, range: payload)
        let header: StoreFileHeader
        do throws(BinaryReader.Failure) {
            header = try StoreFileHeader(from: &headerReader)
        } catch {
            throw .corruptFile(name: name, offset: magic.count, problem: .undecodable(error.reason))
        }
        guard header.generation == generation, header.appBundleIdentifier == SegmentLog.owner,
            header.startSequence != nil, header.storeID != nil
        else {
            throw .corruptFile(
                name: name, offset: magic.count,
                problem: .inconsistent("the header does not name segment log generation \(generation)"))
        }
        var outcome = Outcome(header: header, length: afterHeader, headerLength: afterHeader, torn: nil, changes: 0)
        var decoder = SampleDecoder()
        var offset = afterHeader
        var pendingStart: Int?
        var parts: [StoreMutation] = []
        while true {
            switch scanner.scan(at: offset) {
            case .end:
                if let start = pendingStart {
                    guard isLast else { throw .corruptFile(name: name, offset: start, problem: .truncated) }
                    outcome.torn = FileStoreRecovery.TornTail(
                        file: name, offset: start, length: bytes.count - start, problem: .truncated)
                    outcome.length = start
                } else {
                    outcome.length = offset
                }
                return outcome
            case .tornTail(let at, let problem):
                guard isLast else { throw .corruptFile(name: name, offset: at, problem: problem) }
                let start = pendingStart ?? at
                outcome.torn = FileStoreRecovery.TornTail(
                    file: name, offset: start, length: bytes.count - start, problem: problem)
                outcome.length = start
                return outcome
            case .corrupt(let at, let problem):
                throw .corruptFile(name: name, offset: at, problem: problem)
            case .record(let kind, let payload, let next, let continues):
                guard SegmentLog.recordKinds.contains(kind) else {
                    throw .corruptFile(
                        name: name, offset: offset,
                        problem: .inconsistent("a segment log holds insertions, series additions and deletions only"))
                }
                var reader = BinaryReader(bytes, range: payload)
                do throws(BinaryReader.Failure) {
                    parts.append(try MutationCodec.decode(kind: kind, from: &reader, samples: &decoder))
                } catch {
                    throw .corruptFile(name: name, offset: offset, problem: .undecodable(error.reason))
                }
                if pendingStart == nil { pendingStart = offset }
                offset = next
                if continues { continue }
                guard let mutation = MutationCodec.merge(parts) else {
                    throw .corruptFile(
                        name: name, offset: pendingStart ?? offset,
                        problem: .inconsistent("the records of one change are of different kinds"))
                }
                parts = []
                pendingStart = nil
                try apply(header, mutation)
                outcome.changes += 1
            }
        }
    }
}
