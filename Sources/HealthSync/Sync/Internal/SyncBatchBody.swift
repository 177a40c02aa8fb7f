import CZlib
import Foundation
import HealthFlow

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
    /// The most changes the batch asked of the type: what room it had left, or less for a type that carries
    /// series (``SyncSeriesGathering/room(for:within:)``).
    let offered: Int
    /// The series of the section's samples that carry one (``SyncSeriesGathering``), by sample UUID.
    var series: [UUID: SyncSampleSeries] = [:]

    var count: Int { changes.samples.count + changes.deletedObjects.count }
    /// Whether the type gave all it was asked for, so more of its changes may be waiting.
    var filledItsRoom: Bool { count >= offered }
}

/// A batch ready to upload: the request, and the temp file holding the gzip part when it was spilled to disk.
struct PreparedSyncBatch: Sendable {
    let request: UploadRequest
    let tempFile: FileSystemPath?

    /// Removes the temp file (if any); safe to call more than once.
    func remove() {
        _ = tempFile?.withCString { unlink($0) }
    }
}

/// Builds the multipart body of a batch: JSON (``SyncBatchWriter``) → gzip → one `application/gzip` part, held in
/// memory while small and spilled to a 0600 temp file in the private folder once larger than `inMemoryLimit`.
enum SyncBatchBody {
    static func prepare(
        header: SyncBatchHeader, sections: [SyncPlanSection], tempFolder: FileSystemPath, inMemoryLimit: Int
    ) throws -> PreparedSyncBatch {
        let spool = GzipSpool(inMemoryLimit: inMemoryLimit) {
            tempFolder.appending(".batch-\(header.batchID.uuidString)-\(UUID().uuidString).gz")
        }
        do {
            let gzip = try GzipCompressor()
            var writer = SyncBatchWriter(header: header) { chunk in
                try spool.append(gzip.compress(chunk))
            }
            for section in sections where section.count > 0 {
                try writer.writeSection(section.type, changes: section.changes, series: section.series)
            }
            try writer.finish()
            try spool.append(gzip.finish())
            try spool.closeFile()
            let filename = "batch-\(header.batchID.uuidString).json.gz"
            let part: MultipartPart
            if let path = spool.filePath {
                part = try MultipartPart(
                    name: "batch", filename: filename, contentType: "application/gzip", length: spool.length,
                    makeStream: { FileInputStream(path: path) })
            } else {
                part = try MultipartPart(
                    name: "batch", filename: filename, contentType: "application/gzip", data: spool.data)
            }
            // One system draw seeds the boundary's 32 characters (`MultipartBody(parts:)` draws one per character,
            // one `getrandom(2)` each on Linux); the boundary need only be absent from the content, which is checked.
            var system = SystemRandomSource()
            var random = SeededRandomNumberGenerator(seed: system.next())
            let body = try MultipartBody(parts: [part], randomBoundaryUsing: &random)
            let uploadBody: UploadBody =
                spool.filePath == nil ? .data(try body.data()) : .stream { body.makeInputStream() }
            let request = UploadRequest(
                batchID: header.batchID, contentType: body.contentType, contentLength: body.contentLength,
                fileExtension: "multipart", body: uploadBody)
            return PreparedSyncBatch(request: request, tempFile: spool.filePath)
        } catch {
            spool.discard()
            throw error
        }
    }

    /// Removes the file at `path`; a missing file is fine.
    static func removePendingFile(at path: FileSystemPath) throws(SyncEngineError) {
        if path.withCString({ unlink($0) }) != 0 && errno != ENOENT {
            throw .pendingFile(operation: "unlink", path: path.description, code: errno)
        }
    }

    /// Removes files in `folder` whose names start with one of `prefixes` (compared byte for byte), except
    /// `keeping`.
    static func removeFiles(in folder: FileSystemPath, prefixes: [[UInt8]], keeping: [UInt8]?) {
        for name in (try? folder.entryNames()) ?? []
        where name.bytes != keeping && prefixes.contains(where: { name.bytes.starts(with: $0) }) {
            _ = folder.appending(name).withCString { unlink($0) }
        }
    }

    /// Makes `folder` a private folder: created 0700 (with any missing parent) when missing; an existing one
    /// must be a real directory owned by this user and is set to 0700.
    static func ensurePrivateFolder(_ folder: FileSystemPath) throws(SyncEngineError) {
        let path = folder.description
        try makeFolder(folder, orThrow: SyncEngineError.tempFolder)
        var info = stat()
        guard folder.withCString({ lstat($0, &info) }) == 0 else {
            throw .tempFolder(path: path, reason: "cannot be inspected")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .tempFolder(path: path, reason: "not a directory") }
        guard info.st_uid == geteuid() else { throw .tempFolder(path: path, reason: "owned by another user") }
        guard folder.withCString({ chmod($0, 0o700) }) == 0 else {
            throw .tempFolder(path: path, reason: "cannot be made private")
        }
    }
}

extension SyncBatchBody {
    /// Creates `folder` and any missing parent (each new one 0700) unless it exists; an existing folder is kept
    /// as it is.
    /// - Parameter failure: The error naming the folder's role, given its path and why it could not be created.
    static func makeFolder(
        _ folder: FileSystemPath, orThrow failure: (_ path: String, _ reason: String) -> SyncEngineError
    ) throws(SyncEngineError) {
        do throws(PathCallFailure) {
            try folder.makeFolders(mode: 0o700)
        } catch {
            throw failure(folder.description, error.code == ENOTDIR ? "not a directory" : "cannot be created")
        }
    }
}

/// Collects gzip output in memory, moving it to a temp file (created 0600, exclusively) past a size limit; the
/// file's name is made only then.
private final class GzipSpool {
    private let makeTempPath: () -> FileSystemPath
    private let inMemoryLimit: Int
    private var descriptor: Int32 = -1
    private(set) var data = Data()
    private(set) var length: Int64 = 0
    private(set) var filePath: FileSystemPath?

    init(inMemoryLimit: Int, tempPath: @escaping () -> FileSystemPath) {
        self.makeTempPath = tempPath
        self.inMemoryLimit = inMemoryLimit
    }

    func append(_ bytes: Data) throws(SyncEngineError) {
        guard !bytes.isEmpty else { return }
        length += Int64(bytes.count)
        if filePath == nil {
            data.append(bytes)
            guard data.count > inMemoryLimit else { return }
            let path = try openFile()
            let pending = data
            data = Data()
            try writeAll(pending, to: path)
        } else if let path = filePath {
            try writeAll(bytes, to: path)
        }
    }

    func closeFile() throws(SyncEngineError) {
        guard descriptor >= 0, let path = filePath else { return }
        let result = close(descriptor)
        descriptor = -1
        if result != 0 { throw .tempFile(operation: "close", path: path.description, code: errno) }
    }

    func discard() {
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
        _ = filePath?.withCString { unlink($0) }
        filePath = nil
    }

    private func openFile() throws(SyncEngineError) -> FileSystemPath {
        let path = makeTempPath()
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        guard fd >= 0 else { throw .tempFile(operation: "open", path: path.description, code: errno) }
        descriptor = fd
        filePath = path
        guard fchmod(fd, 0o600) == 0 else {
            throw .tempFile(operation: "fchmod", path: path.description, code: errno)
        }
        return path
    }

    private func writeAll(_ bytes: Data, to path: FileSystemPath) throws(SyncEngineError) {
        do throws(PathCallFailure) {
            try path.writeAll(bytes, to: descriptor)
        } catch {
            throw .tempFile(operation: error.operation, path: error.path, code: error.code)
        }
    }
}
