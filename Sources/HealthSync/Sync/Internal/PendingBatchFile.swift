import Foundation
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one durable file of a pending batch: its multipart body byte for byte, then the ``StoredSyncState`` that
/// records it as pending (JSON: the trailer), then a footer line with the trailer's length and CRC-32 (zlib):
///
///     <body, bodyLength bytes><trailer>\nhealthflow-pending-batch 1 <trailer length, 16 hex> <CRC-32, 8 hex>\n
///
/// Its name is `<state file name>.pending-<sequence, 16 hex digits>-<batch ID>.multipart`. It is written as one
/// ``AtomicFile`` (temp, `fsync`, rename, folder `fsync`): the body and the record that makes it pending are
/// durable together after two `fsync`s, and a crash leaves either the whole file or none. Only the first
/// `bodyLength` bytes are uploaded.
enum PendingBatchFile {
    /// Why a file is not a pending batch file: one line, no health value.
    struct Unreadable: Error {
        let reason: String
    }

    private static let footerStart = Array("\nhealthflow-pending-batch 1 ".utf8)
    /// The footer's length in bytes: its start, 16 hex digits, a space, 8 hex digits and a newline.
    static let footerLength = footerStart.count + 16 + 1 + 8 + 1

    /// The file name of the batch `batchID` kept with `sequence`; `prefix` is the state file's name and `.pending-`.
    static func name(prefix: String, sequence: UInt64, batchID: UUID) -> String {
        prefix + hex(sequence, digits: 16) + "-" + batchID.uuidString + ".multipart"
    }

    /// The sequence a pending batch file's name carries, or `nil` for any other name (a body file of an older
    /// version, `<prefix><batch ID>.multipart`, has none).
    static func sequence(inName name: [UInt8], prefix: [UInt8]) -> UInt64? {
        guard name.starts(with: prefix), name.count == prefix.count + nameTailLength else { return nil }
        return sequence(inName: name)
    }

    /// `<16 hex>-<batch ID>.multipart`: how long the part of a name after the prefix is.
    private static let nameTailLength = 16 + 1 + 36 + ".multipart".utf8.count

    /// The sequence in a name that ends as a pending batch file's does (`.pending-<16 hex>-<batch ID>.multipart`).
    private static func sequence(inName name: [UInt8]) -> UInt64? {
        let marker = Array(".pending-".utf8)
        guard name.count >= marker.count + nameTailLength else { return nil }
        let tail = Array(name.suffix(nameTailLength))
        guard name.dropLast(nameTailLength).suffix(marker.count).elementsEqual(marker),
            tail[16] == UInt8(ascii: "-"), tail.suffix(10).elementsEqual(".multipart".utf8),
            UUID(uuidString: String(decoding: tail[17..<53], as: UTF8.self)) != nil,
            tail[0..<16].allSatisfy({
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            })
        else { return nil }
        return UInt64(String(decoding: tail[0..<16], as: UTF8.self), radix: 16)
    }

    /// Writes `request`'s body, then `stored` with the body's CRC-32 set in its pending record, to `destination`,
    /// durably: ``stage(_:recording:to:)``, then its rename into place and the folder's `fsync`.
    /// - Returns: The body's CRC-32, as the record written holds it.
    /// - Throws: ``SyncEngineError/pendingFile(operation:path:code:)`` when a call fails, or
    ///   ``SyncEngineError/pendingBatchCorrupt(path:reason:)`` when the body is not `contentLength` bytes long.
    static func write(
        _ request: UploadRequest, recording stored: StoredSyncState, to destination: FileSystemPath,
        onStep: ((AtomicFile.Step) -> Void)? = nil
    ) throws -> UInt32 {
        let staged = try stage(request, recording: stored, to: destination)
        onStep?(.fileSynced)
        try staged.commit(onStep: onStep)
        return staged.checksum
    }

    /// A pending batch file written and `fsync`ed under its temp name (``AtomicFile/Staged``), not in place: no
    /// state until ``commit(onStep:)``.
    struct Staged: Sendable {
        let file: AtomicFile.Staged
        /// The state its trailer holds: the one it was staged with, the body's CRC-32 set in its pending record.
        let stored: StoredSyncState
        /// The body's CRC-32.
        let checksum: UInt32

        /// Renames it into place (replacing) and `fsync`s its folder: from then on the batch is pending.
        /// - Throws: ``SyncEngineError/pendingFile(operation:path:code:)``; the temp file is then removed.
        func commit(onStep: ((AtomicFile.Step) -> Void)? = nil) throws(SyncEngineError) {
            do {
                _ = try file.commit(replaceExisting: true, onStep: onStep)
            } catch let failure as PathCallFailure {
                throw .pendingFile(operation: failure.operation, path: failure.path, code: failure.code)
            } catch {
                throw .pendingFile(operation: "rename", path: file.destination.description, code: 0)
            }
        }
    }

    /// Writes `request`'s body, then `stored` with the body's CRC-32 set in its pending record, under a temp name
    /// beside `destination` (`.<name>.tmp-<UUID>`, ``AtomicFile/stage(to:_:)``), and `fsync`s it; `destination`
    /// is untouched.
    /// - Throws: ``SyncEngineError/pendingFile(operation:path:code:)`` when a call fails, or
    ///   ``SyncEngineError/pendingBatchCorrupt(path:reason:)`` when the body is not `contentLength` bytes long;
    ///   nothing is left behind.
    static func stage(
        _ request: UploadRequest, recording stored: StoredSyncState, to destination: FileSystemPath
    ) throws -> Staged {
        var checksum = PendingBodyChecksum()
        var record = stored
        do {
            let file = try AtomicFile.stage(to: destination) { sink in
                var length: Int64 = 0
                try request.body.forEachChunk { chunk in
                    length += Int64(chunk.count)
                    checksum.update(chunk)
                    try sink(chunk)
                }
                guard length == request.contentLength else {
                    throw SyncEngineError.pendingBatchCorrupt(
                        path: destination.description,
                        reason: "wrote \(length) bytes, expected \(request.contentLength)")
                }
                record.state.pending?.bodyCRC32 = checksum.value
                let trailer = try record.encoded()
                try trailer.withUnsafeBytes { try sink($0) }
                try footer(for: trailer).withUnsafeBytes { try sink($0) }
            }
            return Staged(file: file, stored: record, checksum: checksum.value)
        } catch let failure as PathCallFailure {
            throw SyncEngineError.pendingFile(operation: failure.operation, path: failure.path, code: failure.code)
        }
    }

    /// The state a pending batch file records, checked against its name: the footer, the trailer's CRC-32, the
    /// document, and that it records this very file (name, sequence, batch ID, body length) as pending. The body
    /// itself is checked (CRC-32) before it is re-sent, by ``checkBody(at:record:)``.
    static func read(at path: FileSystemPath, sequence: UInt64) throws(Unreadable) -> StoredSyncState {
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw Unreadable(reason: "cannot be opened (errno \(errno))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Unreadable(reason: "cannot be inspected (errno \(errno))") }
        let size = Int64(info.st_size)
        guard size >= Int64(footerLength) else { throw Unreadable(reason: "\(size) bytes, too short for a record") }
        let footer = try readBytes(descriptor, count: footerLength, at: size - Int64(footerLength))
        guard footer.starts(with: footerStart), footer.last == UInt8(ascii: "\n"),
            let trailerLength = Int64(text(footer, from: footerStart.count, count: 16), radix: 16),
            let expected = UInt32(text(footer, from: footerStart.count + 17, count: 8), radix: 16)
        else { throw Unreadable(reason: "no pending-batch footer") }
        guard trailerLength <= min(size - Int64(footerLength), AnchorStore.largestStateFile) else {
            throw Unreadable(reason: "a record of \(trailerLength) bytes does not fit")
        }
        let trailer = try readBytes(
            descriptor, count: Int(trailerLength), at: size - Int64(footerLength) - trailerLength)
        var checksum = PendingBodyChecksum()
        trailer.withUnsafeBytes { checksum.update($0) }
        guard checksum.value == expected else {
            throw Unreadable(
                reason: "record CRC-32 \(PendingBodyChecksum.hex(checksum.value)), expected "
                    + PendingBodyChecksum.hex(expected))
        }
        let stored: StoredSyncState
        do {
            stored = try JSONDecoder().decode(StoredSyncState.self, from: Data(trailer))
        } catch {
            throw Unreadable(reason: "the record is not a sync state document")
        }
        let bodyLength = size - Int64(footerLength) - trailerLength
        guard let pending = stored.state.pending, pending.bodyFileName == path.lastComponent.description,
            stored.sequence == sequence, pending.bodyLength == bodyLength
        else { throw Unreadable(reason: "the record does not describe this file") }
        return stored
    }

    /// The state recorded by the pending batch file in `folder` with the highest sequence above `sequence`, or
    /// `nil` when there is none.
    /// - Throws: ``SyncStateError/corrupt(path:reason:)`` when that file is damaged: it is the newest state, and
    ///   an older one would send again what it acknowledged; ``SyncStateError/io(operation:path:code:)`` when
    ///   the folder cannot be listed, for the same reason (`listing` lists it; tests make it fail).
    static func newest(
        in folder: FileSystemPath, prefix: [UInt8], above sequence: UInt64,
        listing: (FileSystemPath) throws(PathCallFailure) -> [FileSystemPath] = { try $0.entryNames() }
    ) throws(SyncStateError) -> StoredSyncState? {
        guard let (name, newest) = try newestFile(in: folder, prefix: prefix, listing: listing), newest > sequence
        else { return nil }
        let path = folder.appending(name)
        do throws(Unreadable) {
            return try read(at: path, sequence: newest)
        } catch {
            throw .corrupt(path: path.description, reason: "pending batch file: \(error.reason)")
        }
    }

    /// The name and sequence of the pending batch file in `folder` with the highest sequence, if any.
    /// - Throws: ``SyncStateError/io(operation:path:code:)`` when the folder is there but cannot be listed: no
    ///   file is then known to be the newest.
    static func newestFile(
        in folder: FileSystemPath, prefix: [UInt8],
        listing: (FileSystemPath) throws(PathCallFailure) -> [FileSystemPath] = { try $0.entryNames() }
    ) throws(SyncStateError) -> (FileSystemPath, UInt64)? {
        let names: [FileSystemPath]
        do throws(PathCallFailure) {
            names = try listing(folder)
        } catch  where error.code == ENOENT {
            names = []  // no folder, no pending batch file
        } catch {
            throw .io(operation: error.operation, path: error.path, code: error.code)
        }
        var newest: (FileSystemPath, UInt64)?
        for name in names {
            guard let sequence = sequence(inName: name.bytes, prefix: prefix) else { continue }
            if sequence >= newest?.1 ?? 0 { newest = (name, sequence) }
        }
        return newest
    }

    /// Checks that the file at `path` holds `record`'s body: a regular file that is either exactly the body (as
    /// older versions wrote it) or a pending batch file recording this batch with this body length; and, when the
    /// record has one, that the body's bytes have its CRC-32.
    /// - Throws: ``SyncEngineError/pendingBatchMissing(path:)`` or
    ///   ``SyncEngineError/pendingBatchCorrupt(path:reason:)``.
    static func checkBody(at path: FileSystemPath, record: PendingBatch) throws(SyncEngineError) {
        var info = stat()
        guard path.withCString({ lstat($0, &info) }) == 0 else {
            if errno == ENOENT { throw .pendingBatchMissing(path: path.description) }
            throw .pendingBatchCorrupt(path: path.description, reason: "cannot be inspected (errno \(errno))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .pendingBatchCorrupt(path: path.description, reason: "not a file")
        }
        if Int64(info.st_size) != record.bodyLength {
            let recorded = sequence(inName: path.lastComponent.bytes)
                .flatMap { try? read(at: path, sequence: $0) }?.state.pending
            guard recorded?.batchID == record.batchID, recorded?.bodyLength == record.bodyLength,
                recorded?.bodyCRC32 == record.bodyCRC32 || record.bodyCRC32 == nil
            else {
                throw .pendingBatchCorrupt(
                    path: path.description, reason: "\(info.st_size) bytes, expected \(record.bodyLength)")
            }
        }
        guard let expected = record.bodyCRC32 else { return }
        let actual = try PendingBodyChecksum.ofFile(at: path, length: record.bodyLength)
        guard actual == expected else {
            throw .pendingBatchCorrupt(
                path: path.description,
                reason: "CRC-32 \(PendingBodyChecksum.hex(actual)), expected \(PendingBodyChecksum.hex(expected))")
        }
    }

    /// The first `length` bytes of the file at `path`, read afresh for every attempt.
    static func body(at path: FileSystemPath, length: Int64) -> UploadBody {
        .stream { FileInputStream(path: path, limit: length) }
    }

    private static func footer(for trailer: Data) -> Data {
        var checksum = PendingBodyChecksum()
        trailer.withUnsafeBytes { checksum.update($0) }
        let line = hex(UInt64(trailer.count), digits: 16) + " " + PendingBodyChecksum.hex(checksum.value) + "\n"
        return Data(footerStart + Array(line.utf8))
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    private static func text(_ bytes: [UInt8], from start: Int, count: Int) -> String {
        String(decoding: bytes[start..<(start + count)], as: UTF8.self)
    }

    private static func readBytes(_ descriptor: Int32, count: Int, at offset: Int64) throws(Unreadable) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw Unreadable(reason: "cannot be read (errno \(result < 0 ? errno : 0))") }
            done += result
        }
        return bytes
    }
}
