import Foundation
import HealthFlow

import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One type's share of a batch: its changes since its anchor, and the anchor to commit once acknowledged.
struct SyncPlanSection: Sendable {
    let type: HealthObjectType
    let changes: HealthAnchoredChanges

    var count: Int { changes.samples.count + changes.deletedObjects.count }
}

/// A batch ready to upload: the request, and the temp file holding the gzip part when it was spilled to disk.
struct PreparedSyncBatch: Sendable {
    let request: UploadRequest
    let tempFile: URL?

    /// Removes the temp file (if any); safe to call more than once.
    func remove() {
        if let tempFile { _ = unlink(tempFile.path) }
    }
}

/// Builds the multipart body of a batch: JSON (``SyncBatchWriter``) → gzip → one `application/gzip` part, held in
/// memory while small and spilled to a 0600 temp file in the private folder once larger than `inMemoryLimit`.
enum SyncBatchBody {
    static func prepare(
        header: SyncBatchHeader, sections: [SyncPlanSection], tempFolder: URL, inMemoryLimit: Int
    ) throws -> PreparedSyncBatch {
        let spool = GzipSpool(
            tempURL: tempFolder.appendingPathComponent(".batch-\(header.batchID.uuidString)-\(UUID().uuidString).gz"),
            inMemoryLimit: inMemoryLimit)
        do {
            let gzip = try GzipCompressor()
            var writer = SyncBatchWriter(header: header) { chunk in
                try spool.append(gzip.compress(chunk))
            }
            for section in sections where section.count > 0 {
                try writer.writeSection(section.type, changes: section.changes)
            }
            try writer.finish()
            try spool.append(gzip.finish())
            try spool.closeFile()
            let filename = "batch-\(header.batchID.uuidString).json.gz"
            let part: MultipartPart
            if let url = spool.fileURL {
                part = try MultipartPart(
                    name: "batch", filename: filename, contentType: "application/gzip", length: spool.length,
                    makeStream: { InputStream(url: url) })
            } else {
                part = try MultipartPart(
                    name: "batch", filename: filename, contentType: "application/gzip", data: spool.data)
            }
            let body = try MultipartBody(parts: [part])
            let uploadBody: UploadBody =
                spool.fileURL == nil ? .data(try body.data()) : .stream { body.makeInputStream() }
            let request = UploadRequest(
                batchID: header.batchID, contentType: body.contentType, contentLength: body.contentLength,
                fileExtension: "multipart", body: uploadBody)
            return PreparedSyncBatch(request: request, tempFile: spool.fileURL)
        } catch {
            spool.discard()
            throw error
        }
    }

    /// Writes the whole body of `request` durably to `destination`: a 0600 temp file beside it, the bytes,
    /// `fsync`, rename into place, `fsync` of the folder.
    /// - Returns: The CRC-32 of the bytes written, kept in the pending record and checked before a re-send.
    static func persist(_ request: UploadRequest, to destination: URL) throws -> UInt32 {
        var checksum = PendingBodyChecksum()
        do {
            _ = try AtomicFile.write(to: destination, replaceExisting: true) { sink in
                var written: Int64 = 0
                try request.body.forEachChunk { chunk in
                    written += Int64(chunk.count)
                    checksum.update(chunk)
                    try sink(chunk)
                }
                guard written == request.contentLength else {
                    throw SyncEngineError.pendingBatchCorrupt(
                        path: destination.path, reason: "wrote \(written) bytes, expected \(request.contentLength)")
                }
            }
        } catch let failure as AtomicFileFailure {
            throw SyncEngineError.pendingFile(operation: failure.operation, path: failure.path, code: failure.code)
        }
        return checksum.value
    }

    /// Checks that the pending body file at `url` is a regular file of exactly `length` bytes and, when the record
    /// has one (files written before checksums existed do not), that its bytes have the CRC-32 `crc32`.
    static func checkPendingFile(at url: URL, length: Int64, crc32 expected: UInt32?) throws(SyncEngineError) {
        try checkPendingFile(at: url, length: length)
        guard let expected else { return }
        let actual = try PendingBodyChecksum.ofFile(at: url)
        guard actual == expected else {
            throw .pendingBatchCorrupt(
                path: url.path, reason: "CRC-32 \(PendingBodyChecksum.hex(actual)), expected \(PendingBodyChecksum.hex(expected))")
        }
    }

    /// Checks that the pending body file at `url` is a regular file of exactly `length` bytes.
    private static func checkPendingFile(at url: URL, length: Int64) throws(SyncEngineError) {
        var info = stat()
        guard lstat(url.path, &info) == 0 else {
            if errno == ENOENT { throw .pendingBatchMissing(path: url.path) }
            throw .pendingBatchCorrupt(path: url.path, reason: "cannot be inspected (errno \(errno))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .pendingBatchCorrupt(path: url.path, reason: "not a file")
        }
        guard Int64(info.st_size) == length else {
            throw .pendingBatchCorrupt(path: url.path, reason: "\(info.st_size) bytes, expected \(length)")
        }
    }

    /// Removes the file at `url`; a missing file is fine.
    static func removePendingFile(at url: URL) throws(SyncEngineError) {
        if unlink(url.path) != 0 && errno != ENOENT {
            throw .pendingFile(operation: "unlink", path: url.path, code: errno)
        }
    }

    /// Removes files in `folder` whose names start with one of `prefixes`, except `keeping`.
    static func removeFiles(in folder: URL, prefixes: [String], keeping: String?) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name != keeping && prefixes.contains(where: { name.hasPrefix($0) }) {
            _ = unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// Makes `folder` a private folder: created 0700 when missing; an existing one must be a real directory owned
    /// by this user and is set to 0700.
    static func ensurePrivateFolder(_ folder: URL) throws(SyncEngineError) {
        let path = folder.path
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .tempFolder(path: path, reason: "cannot be created")
            }
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .tempFolder(path: path, reason: "cannot be inspected") }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .tempFolder(path: path, reason: "not a directory") }
        guard info.st_uid == geteuid() else { throw .tempFolder(path: path, reason: "owned by another user") }
        guard chmod(path, 0o700) == 0 else { throw .tempFolder(path: path, reason: "cannot be made private") }
    }
}

/// Collects gzip output in memory, moving it to a temp file (created 0600, exclusively) past a size limit.
private final class GzipSpool {
    private let tempURL: URL
    private let inMemoryLimit: Int
    private var descriptor: Int32 = -1
    private(set) var data = Data()
    private(set) var length: Int64 = 0
    private(set) var fileURL: URL?

    init(tempURL: URL, inMemoryLimit: Int) {
        self.tempURL = tempURL
        self.inMemoryLimit = inMemoryLimit
    }

    func append(_ bytes: Data) throws(SyncEngineError) {
        guard !bytes.isEmpty else { return }
        length += Int64(bytes.count)
        if fileURL == nil {
            data.append(bytes)
            guard data.count > inMemoryLimit else { return }
            try openFile()
            let pending = data
            data = Data()
            try writeAll(pending)
        } else {
            try writeAll(bytes)
        }
    }

    func closeFile() throws(SyncEngineError) {
        guard descriptor >= 0 else { return }
        let result = close(descriptor)
        descriptor = -1
        if result != 0 { throw .tempFile(operation: "close", path: tempURL.path, code: errno) }
    }

    func discard() {
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
        if fileURL != nil { _ = unlink(tempURL.path) }
        fileURL = nil
    }

    private func openFile() throws(SyncEngineError) {
        let fd = open(tempURL.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .tempFile(operation: "open", path: tempURL.path, code: errno) }
        descriptor = fd
        fileURL = tempURL
        guard fchmod(fd, 0o600) == 0 else { throw .tempFile(operation: "fchmod", path: tempURL.path, code: errno) }
    }

    private func writeAll(_ bytes: Data) throws(SyncEngineError) {
        let fd = descriptor
        let path = tempURL.path
        let failure: Int32? = bytes.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return nil }
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .tempFile(operation: "write", path: path, code: failure) }
    }
}

