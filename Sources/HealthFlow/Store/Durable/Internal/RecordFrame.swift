/// What a record holds (the `kind` byte of its frame).
enum RecordKind: UInt8, Sendable {
    /// First record of a journal or snapshot: generation and app (``StoreFileHeader``).
    case header = 1
    /// Journal: samples saved or ingested, one batch.
    case insert = 2
    /// Journal: samples deleted, one batch.
    case delete = 3
    /// Journal: an answer to the permission sheet.
    case authorization = 4
    /// Journal: one ECG ingested with its voltage measurements (``SeriesKind/voltages``; a batch is one record per
    /// ECG).
    case recording = 5
    /// Journal: one workout ingested with its routes (``SeriesKind/routes``; a batch is one record per workout).
    case workoutRecording = 6
    /// Journal, as written before additions announced their sample again: routes added to a stored workout
    /// (``SeriesKind/routes``), its UUID and the routes. Replayed as written: the workout keeps its sequence number.
    case addedRoutes = 7
    /// Journal: one heartbeat series ingested with its beats (``SeriesKind/heartbeats``; a batch is one record per
    /// series).
    case heartbeatRecording = 8
    /// Journal: routes added to a stored workout that announce it again (``SeriesKind/additionRecord``): its UUID
    /// and the routes; the workout takes the next sequence number.
    case announcedRoutes = 9
    /// Snapshot: the authorization table.
    case authorizationTable = 16
    /// Snapshot: a type's section begins (identifier and the number of additions and tombstones that follow).
    case typeSection = 17
    /// Snapshot: a run of a type's additions log (with the live samples).
    case additions = 18
    /// Snapshot: a run of a type's tombstones (with the deleted samples).
    case tombstones = 19
    /// Snapshot: the last record (the change sequence number), present only in a complete snapshot.
    case end = 20
    /// Snapshot: one live ECG's voltage measurements (``SeriesKind/voltages``; after the sections, before the end
    /// record).
    case voltages = 21
    /// Snapshot: one live workout's routes (``SeriesKind/routes``; after the voltages, before the end record).
    case routes = 22
    /// Snapshot: one live heartbeat series' beats (``SeriesKind/heartbeats``; after the routes, before the end
    /// record).
    case heartbeats = 23
}

/// The frame around every record in journal and snapshot files.
///
/// ```text
/// offset  size  field
///      0     4  payload length n (UInt32, little-endian)
///      4     1  format version (1)
///      5     1  kind (RecordKind)
///      6     1  flags: bit 0 "more follows" — the next record continues the same change (journal only)
///      7     1  reserved, zero
///      8     4  CRC-32 of the payload
///     12     4  CRC-32 of bytes 0..<12 (so a damaged length is caught before it is believed)
///     16     n  payload
/// ```
enum RecordFrame {
    static let headerSize = 16
    static let version: UInt8 = 1
    /// The largest payload written (1 GiB): a larger single sample is refused with `recordTooLarge`.
    static let maximumPayload = 1 << 30
    /// A journal record closes once its payload reaches this size (1 MiB): a larger change becomes several
    /// records written together, all but the last flagged ``moreFollows``, so damage costs at most one record.
    static let journalRecordSize = 1 << 20
    /// The flags bit of a record whose change continues in the next record.
    static let moreFollows: UInt8 = 1
    /// The longest run of zeros after the last record still read as an interrupted append (blocks a file system
    /// allocated but never wrote) rather than as damage: 8 MiB, more than the demo's largest single save.
    static let maximumZeroTail = 8 << 20

    /// Appends a framed record to `buffer`.
    static func append(kind: RecordKind, payload: [UInt8], continues: Bool = false, to buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: headerSize))
        buffer.withUnsafeMutableBufferPointer { buffer in
            payload.withUnsafeBufferPointer { payload in
                writeHeader(
                    kind: kind, payloadCount: payload.count, payloadChecksum: CRC32.checksum(payload),
                    continues: continues, to: UnsafeMutableBufferPointer(rebasing: buffer[start..<start + headerSize]))
            }
        }
        buffer.append(contentsOf: payload)
    }

    /// Writes the header of a record whose payload has `payloadCount` bytes and the CRC-32 `payloadChecksum`
    /// into `header` (``headerSize`` bytes).
    static func writeHeader(
        kind: RecordKind, payloadCount: Int, payloadChecksum: UInt32, continues: Bool,
        to header: UnsafeMutableBufferPointer<UInt8>
    ) {
        store(UInt32(truncatingIfNeeded: payloadCount), at: 0, in: header)
        header[4] = version
        header[5] = kind.rawValue
        header[6] = continues ? moreFollows : 0
        header[7] = 0
        store(payloadChecksum, at: 8, in: header)
        store(CRC32.checksum(UnsafeBufferPointer(rebasing: header[0..<12])), at: 12, in: header)
    }

    private static func store(_ value: UInt32, at offset: Int, in header: UnsafeMutableBufferPointer<UInt8>) {
        for byte in 0..<4 { header[offset + byte] = UInt8(truncatingIfNeeded: value >> UInt32(8 * byte)) }
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}

/// One step of reading a file's frames.
enum FrameScan {
    /// A complete, intact record; `continues` when the next record carries the rest of its change.
    case record(kind: RecordKind, payload: Range<Int>, next: Int, continues: Bool)
    /// The file ends cleanly here.
    case end
    /// The bytes from `offset` on are what an interrupted append leaves (see ``FrameScanner``): a write cut
    /// short, or never flushed, at the end of the file.
    case tornTail(offset: Int, problem: FileStoreError.Damage)
    /// The record at `offset` is damaged in a way no interrupted append explains, or is of a newer version: the
    /// file is corrupt.
    case corrupt(offset: Int, problem: FileStoreError.Damage)
}

/// Reads frames from a file's bytes and tells a torn tail from corruption.
///
/// A record is damaged when its header is incomplete or fails its checksum, when its payload runs past the end
/// of the file, or when the payload fails its checksum. Only what an interrupted append leaves is a torn tail:
/// - a header or payload cut short by the end of the file;
/// - zeros from the damaged record to the end of the file, at most ``RecordFrame/maximumZeroTail`` bytes
///   (blocks allocated but never written);
/// - the last record, intact header, complete length, whose payload turns to zeros up to the end of the file
///   from its start or from a 512-byte boundary (its last sectors never written).
///
/// Anything else — a checksum mismatch in a complete record with bytes after it or no zero tail, garbage, a
/// longer run of zeros — is corruption: it is reported where it starts, never cut off. The decision looks only
/// at the damaged record and the bytes after it once, so it costs at most their length, never a search.
struct FrameScanner {
    let bytes: [UInt8]

    func scan(at offset: Int) -> FrameScan {
        if offset == bytes.count { return .end }
        switch check(at: offset) {
        case .intact(let kind, let version, let payload, let next):
            guard version == RecordFrame.version else {
                return .corrupt(offset: offset, problem: .unsupportedVersion(Int(version)))
            }
            guard let kind = RecordKind(rawValue: kind) else {
                return .corrupt(offset: offset, problem: .undecodable("unknown record kind \(kind)"))
            }
            let flags = bytes[offset + 6]
            guard flags & ~RecordFrame.moreFollows == 0, bytes[offset + 7] == 0 else {
                return .corrupt(offset: offset, problem: .undecodable("unknown record flags"))
            }
            return .record(kind: kind, payload: payload, next: next, continues: flags & RecordFrame.moreFollows != 0)
        case .damaged(let problem, let payload):
            return isInterruptedAppend(at: offset, problem: problem, payload: payload)
                ? .tornTail(offset: offset, problem: problem) : .corrupt(offset: offset, problem: problem)
        }
    }

    /// The first offset after `offset` where an intact record of a known kind starts, or `nil` — how a repairing
    /// open finds its way past damage. A header checksum and a payload checksum must both match, so bytes that
    /// merely look like a record are passed over.
    /// - Complexity: O(bytes after `offset`) header checks.
    func nextRecord(after offset: Int) -> Int? {
        var candidate = offset + 1
        while bytes.count - candidate >= RecordFrame.headerSize {
            if case .intact(let kind, let version, _, _) = check(at: candidate), version == RecordFrame.version,
                RecordKind(rawValue: kind) != nil
            {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    private func isInterruptedAppend(at offset: Int, problem: FileStoreError.Damage, payload: Range<Int>?) -> Bool {
        if problem == .truncated { return true }
        if bytes.count - offset <= RecordFrame.maximumZeroTail, isZero(offset..<bytes.count) { return true }
        guard let payload, payload.upperBound == bytes.count else { return false }
        if isZero(payload) { return true }
        // The payload's last sectors: zeros from a 512-byte boundary of the file to its end.
        let boundary = (payload.lowerBound + 511) / 512 * 512
        return boundary < bytes.count && isZero(boundary..<bytes.count)
    }

    private func isZero(_ range: Range<Int>) -> Bool {
        bytes[range].allSatisfy { $0 == 0 }
    }

    private enum Check {
        case intact(kind: UInt8, version: UInt8, payload: Range<Int>, next: Int)
        /// `payload` is known when the header is intact and the payload lies within the file.
        case damaged(FileStoreError.Damage, payload: Range<Int>?)
    }

    private func check(at offset: Int) -> Check {
        guard bytes.count - offset >= RecordFrame.headerSize else { return .damaged(.truncated, payload: nil) }
        guard CRC32.checksum(bytes, in: offset..<offset + 12) == RecordFrame.uint32(bytes, at: offset + 12) else {
            return .damaged(.headerChecksumMismatch, payload: nil)
        }
        let length = Int(RecordFrame.uint32(bytes, at: offset))
        let payloadStart = offset + RecordFrame.headerSize
        guard bytes.count - payloadStart >= length else { return .damaged(.truncated, payload: nil) }
        let payload = payloadStart..<payloadStart + length
        guard CRC32.checksum(bytes, in: payload) == RecordFrame.uint32(bytes, at: offset + 8) else {
            return .damaged(.payloadChecksumMismatch, payload: payload)
        }
        return .intact(kind: bytes[offset + 5], version: bytes[offset + 4], payload: payload, next: payload.upperBound)
    }
}
