import Dispatch
import FlowKit
import Foundation
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ``UploadTransport`` that delivers each batch into a directory as `<batchID>.<ext>` — the embedded
/// default the demo syncs to, and a stand-in server for tests.
///
/// Each body is streamed into a temp file (mode 0600) in the directory, checked against the announced
/// length, `fsync`ed and then linked to its final name, and the directory is `fsync`ed: a file under its
/// final name is always complete. A second upload with the same batch ID changes nothing and reports
/// ``UploadReceipt/Disposition/duplicate`` — the outbox, like a server honouring the idempotency key, holds
/// each batch once.
///
/// The directory is named by its bytes (``directoryPath``): an outbox in a folder whose name is not UTF-8 is
/// created and filled there, never in a folder whose name has U+FFFD in their place.
/// - Note: `Sendable`: it holds a URL, a path and a queue; each upload works on its own temp file.
public struct OutboxTransport: ReportingUploadTransport, StagingUploadTransport {
    /// The outbox directory as a URL: the one the outbox was made with, or ``directoryPath`` as a URL — which,
    /// for a path that is not UTF-8, shows U+FFFD in place of the bytes a URL cannot hold.
    public let directory: URL
    /// The outbox directory, as the bytes every file call is given.
    public let directoryPath: FileSystemPath
    private let queue: DispatchQueue

    /// Creates an outbox in `directory`, creating the directory (mode 0700) when missing.
    ///
    /// - Parameters:
    ///   - directory: Where batches are delivered.
    ///   - queue: Where the file work runs; a utility-priority global queue by default.
    /// - Throws: ``UploadError/io(operation:path:code:)`` when the directory cannot be created.
    public init(directory: URL, queue: DispatchQueue = .global(qos: .utility)) throws {
        try self.init(directory: directory, directoryPath: FileSystemPath(directory), queue: queue)
    }

    /// Creates an outbox in the directory at `directoryPath`, byte for byte, creating it (and any missing parent,
    /// mode 0700) when missing: the way to deliver into a folder whose name is not UTF-8.
    ///
    /// - Parameters:
    ///   - directoryPath: Where batches are delivered.
    ///   - queue: Where the file work runs; a utility-priority global queue by default.
    /// - Throws: ``UploadError/io(operation:path:code:)`` when the directory cannot be created.
    public init(directoryPath: FileSystemPath, queue: DispatchQueue = .global(qos: .utility)) throws {
        try self.init(directory: directoryPath.urlOrDisplayForm, directoryPath: directoryPath, queue: queue)
    }

    private init(directory: URL, directoryPath: FileSystemPath, queue: DispatchQueue) throws {
        do throws(PathCallFailure) {
            try directoryPath.makeFolders(mode: 0o700)
        } catch {
            throw UploadError.io(operation: error.operation, path: error.path, code: error.code)
        }
        self.directory = directory
        self.directoryPath = directoryPath
        self.queue = queue
        self.removedLeftovers = Self.removeLeftovers(in: directoryPath)
    }

    /// The partial batch files a crashed delivery left in the outbox, removed when this outbox was created: only
    /// names the outbox itself generates (`.<BATCH-ID>.<ext>.tmp-<UUID>`, both IDs uppercase as `uuidString` spells
    /// them, `ext` one a delivery accepts), never another file. The batches they held were never delivered (a
    /// delivered batch has its final name), so the sync engine sends them again.
    public let removedLeftovers: [String]

    /// The name a batch is delivered under, `<BATCH-ID>.<ext>`: with its temp names (``AtomicFile``), the only
    /// names a delivery writes.
    static func deliveryName(batchID: UUID, fileExtension: String) -> String {
        batchID.uuidString + "." + fileExtension
    }

    /// Whether a delivery accepts `fileExtension`: not empty, no leading dot, no `/`, no NUL.
    static func acceptsExtension(_ fileExtension: String) -> Bool {
        !fileExtension.isEmpty && !fileExtension.hasPrefix(".") && !fileExtension.contains("/")
            && !fileExtension.contains("\0")
    }

    /// Whether `name` is a temp file this outbox's deliveries create: byte for byte the temp name ``AtomicFile``
    /// stages a ``deliveryName(batchID:fileExtension:)`` under, for a batch ID and an extension a delivery accepts.
    static func isLeftover(_ name: String) -> Bool {
        guard let delivery = AtomicFile.destinationName(ofTempName: Array(name.utf8)) else { return false }
        let text = String(decoding: delivery, as: UTF8.self)
        guard let dot = text.firstIndex(of: "."), let batchID = UUID(uuidString: String(text[..<dot])) else {
            return false
        }
        let fileExtension = String(text[text.index(after: dot)...])
        return acceptsExtension(fileExtension)
            && Array(deliveryName(batchID: batchID, fileExtension: fileExtension).utf8) == delivery
    }

    /// The outbox's names that are UTF-8: every name it generates is (a name that is not is never one of them).
    private static func names(in directory: FileSystemPath) throws(PathCallFailure) -> [String] {
        try directory.entryNames().compactMap { String(validating: $0.bytes, as: UTF8.self) }
    }

    private static func removeLeftovers(in directory: FileSystemPath) -> [String] {
        let names = (try? names(in: directory)) ?? []
        return names.filter(isLeftover).sorted().filter { name in
            directory.appending(name).withCString { unlink($0) } == 0
        }
    }

    /// The file a batch is delivered to: `<directory>/<BATCH-ID>.<ext>`.
    ///
    /// - Parameter request: The upload.
    /// - Returns: The destination.
    public func fileURL(for request: UploadRequest) -> URL {
        directory.appendingPathComponent(
            Self.deliveryName(batchID: request.batchID, fileExtension: request.fileExtension))
    }

    /// The file a batch is delivered to, as the bytes the delivery writes: ``directoryPath`` followed by
    /// `/<BATCH-ID>.<ext>`.
    ///
    /// - Parameter request: The upload.
    /// - Returns: The destination.
    public func filePath(for request: UploadRequest) -> FileSystemPath {
        directoryPath.appending(Self.deliveryName(batchID: request.batchID, fileExtension: request.fileExtension))
    }

    /// Delivers the batch into the outbox (once per batch ID), on the outbox's queue, reporting the attempt and
    /// each chunk written to `reporter`.
    ///
    /// - Parameters:
    ///   - request: The upload.
    ///   - reporter: Where the attempt and its bytes are reported (nothing for a duplicate).
    /// - Returns: The receipt: ``UploadReceipt/Disposition/stored`` with the bytes written, or
    ///   ``UploadReceipt/Disposition/duplicate`` when the batch was already there.
    /// - Note: Rejects with ``UploadError`` (length mismatch, invalid extension, I/O); nothing is left behind.
    public func upload(_ request: UploadRequest, reporter: UploadReporter) -> Promise<UploadReceipt> {
        let (promise, resolver) = Promise<UploadReceipt>.pending()
        queue.async {
            reporter.attemptStarted(batchID: request.batchID, totalBytes: request.contentLength)
            resolver.resolve(Result { try deliver(request, reporter: reporter) })
        }
        return promise
    }

    /// The IDs of the batches in the outbox, sorted.
    ///
    /// - Returns: The batch IDs.
    /// - Throws: ``UploadError/io(operation:path:code:)`` when the directory cannot be listed.
    public func storedBatchIDs() throws -> [UUID] {
        let names: [String]
        do throws(PathCallFailure) {
            names = try Self.names(in: directoryPath)
        } catch {
            throw UploadError.io(operation: error.operation, path: error.path, code: error.code)
        }
        let ids = names.compactMap { name -> UUID? in
            guard !name.hasPrefix("."), let dot = name.firstIndex(of: ".") else { return nil }
            return UUID(uuidString: String(name[..<dot]))
        }
        return Set(ids).sorted { $0.uuidString < $1.uuidString }
    }

    private func deliver(_ request: UploadRequest, reporter: UploadReporter) throws -> UploadReceipt {
        let destination = try checkedFilePath(for: request)
        if let duplicate = duplicateReceipt(for: request, at: destination) { return duplicate }
        let staged = try write(request, to: destination) { reporter.add(sentBytes: $0) }
        return try put(staged.file, for: request, bytes: staged.length)
    }

    /// The file `request` is delivered to, once its extension is checked.
    private func checkedFilePath(for request: UploadRequest) throws -> FileSystemPath {
        guard Self.acceptsExtension(request.fileExtension) else {
            throw UploadError.invalidFileExtension(request.fileExtension)
        }
        return filePath(for: request)
    }

    /// The duplicate's receipt when the batch is already in the outbox.
    private func duplicateReceipt(for request: UploadRequest, at destination: FileSystemPath) -> UploadReceipt? {
        var status = stat()
        guard destination.withCString({ stat($0, &status) }) == 0 else { return nil }
        return UploadReceipt(
            batchID: request.batchID, disposition: .duplicate, bytesSent: 0, location: destination.description)
    }

    /// Writes `request`'s body under a temp name beside `destination` and `fsync`s it, checking its length; each
    /// chunk's length is told to `written`.
    private func write(
        _ request: UploadRequest, to destination: FileSystemPath, written: (Int64) -> Void
    ) throws -> StagedUpload {
        var length: Int64 = 0
        do {
            let file = try AtomicFile.stage(to: destination) { sink in
                try request.body.forEachChunk { chunk in
                    length += Int64(chunk.count)
                    guard length <= request.contentLength else {
                        throw UploadError.lengthMismatch(expected: request.contentLength, actual: length)
                    }
                    try sink(chunk)
                    written(Int64(chunk.count))
                }
                guard length == request.contentLength else {
                    throw UploadError.lengthMismatch(expected: request.contentLength, actual: length)
                }
            }
            return StagedUpload(file: file, batchID: request.batchID, length: length)
        } catch let failure as PathCallFailure {
            throw UploadError.io(operation: failure.operation, path: failure.path, code: failure.code)
        }
    }

    /// Links the staged `file` to its final name and `fsync`s the outbox (a batch already there is kept and
    /// reported as a duplicate); the temp name is removed whatever happens.
    private func put(_ file: AtomicFile.Staged, for request: UploadRequest, bytes: Int64) throws -> UploadReceipt {
        let outcome: AtomicFile.Outcome
        do {
            outcome = try file.commit(replaceExisting: false)
        } catch let failure as PathCallFailure {
            throw UploadError.io(operation: failure.operation, path: failure.path, code: failure.code)
        }
        return UploadReceipt(
            batchID: request.batchID, disposition: outcome == .written ? .stored : .duplicate, bytesSent: bytes,
            location: file.destination.description)
    }

    /// A batch's body written into the outbox under a temp name (`.<BATCH-ID>.<ext>.tmp-<UUID>`) and `fsync`ed
    /// ahead of its upload (``stageBody(_:)``): not a delivery, and a leftover the next outbox removes, until
    /// ``deliver(_:as:reporter:)`` links it to its final name.
    public struct StagedUpload: Sendable {
        let file: AtomicFile.Staged
        let batchID: UUID
        let length: Int64
    }

    /// Writes `request`'s body into the outbox under a temp name and `fsync`s it, on the caller's thread: the half
    /// of a delivery that can be done before the batch may be delivered. Nothing is delivered.
    ///
    /// - Parameter request: The upload.
    /// - Returns: The staged body, for ``deliver(_:as:reporter:)`` or ``discard(_:)``.
    /// - Throws: ``UploadError`` (length mismatch, invalid extension, I/O); nothing is left behind.
    public func stageBody(_ request: UploadRequest) throws -> StagedUpload {
        try write(request, to: try checkedFilePath(for: request)) { _ in }
    }

    /// Delivers the body `staged` holds as `request`, on the caller's thread: the link to its final name and the
    /// outbox's `fsync` (the other half of a delivery), reporting the attempt and its bytes; a batch already
    /// there is kept and reported as a duplicate. The caller vouches that `staged` holds `request`'s bytes; one
    /// staged for another batch ID or length is removed and `request` delivered from its own body, as
    /// ``upload(_:reporter:)`` does.
    ///
    /// - Parameters:
    ///   - staged: What ``stageBody(_:)`` gave.
    ///   - request: The upload.
    ///   - reporter: Where the attempt and its bytes are reported.
    /// - Returns: The receipt, as ``upload(_:reporter:)`` gives it.
    /// - Throws: ``UploadError``; the temp file is removed whatever happens.
    public func deliver(
        _ staged: StagedUpload, as request: UploadRequest, reporter: UploadReporter
    ) throws -> UploadReceipt {
        reporter.attemptStarted(batchID: request.batchID, totalBytes: request.contentLength)
        guard staged.batchID == request.batchID, staged.length == request.contentLength,
            staged.file.destination == filePath(for: request)
        else {
            staged.file.remove()
            return try deliver(request, reporter: reporter)
        }
        reporter.add(sentBytes: staged.length)
        return try put(staged.file, for: request, bytes: staged.length)
    }

    /// Deletes a staged body's temp file: one that is not to be delivered.
    ///
    /// - Parameter staged: What ``stageBody(_:)`` gave.
    public func discard(_ staged: StagedUpload) {
        staged.file.remove()
    }
}
