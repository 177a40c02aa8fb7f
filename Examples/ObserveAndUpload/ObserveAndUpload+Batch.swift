import ExampleSupport
import Foundation
import HealthFlow
import HealthSync

/// The upload step shared by the three styles: every type's changes become one batch in the documented JSON
/// schema (``HealthSync/SyncBatchWriter``), gzipped (``HealthSync/GzipCompressor``) into the one `batch` part of a
/// multipart/form-data body, ready for any ``HealthSync/UploadTransport``. The batch ID is new each time: it is the
/// idempotency key, so a retry of this request is stored once, and another gathering is another batch.
///
/// - Parameters:
///   - gathered: Every type's changes, in any order (the batch lists them in ``ObserveAndUploadExample/observedTypes``
///     order, samples by UUID).
///   - context: The clock for the batch's `createdAt`.
/// - Returns: The upload, its body in memory.
/// - Throws: ``HealthSync/SyncSerializationError``, ``HealthSync/GzipError`` or ``HealthSync/MultipartError``.
public func makeUploadRequest(_ gathered: [GatheredChanges], in context: ExampleContext) throws -> UploadRequest {
    let header = SyncBatchHeader(batchID: UUID(), deviceID: ObserveAndUploadExample.deviceID, createdAt: context.now)
    let gzip = try GzipCompressor()
    var payload = Data()
    var writer = SyncBatchWriter(header: header) { chunk in payload += try gzip.compress(chunk) }
    for changes in ordered(gathered) where !changes.samples.isEmpty || !changes.deletedObjects.isEmpty {
        try writer.beginSection(changes.type)
        for sample in changes.samples.sorted(by: { $0.uuid.uuidString < $1.uuid.uuidString }) {
            try writer.writeSample(sample)
        }
        for deleted in changes.deletedObjects.sorted(by: { $0.uuid.uuidString < $1.uuid.uuidString }) {
            try writer.writeDeleted(deleted)
        }
        try writer.endSection()
    }
    try writer.finish()
    payload += try gzip.finish()
    let part = try MultipartPart(
        name: "batch", filename: "batch-\(header.batchID.uuidString).json.gz", contentType: "application/gzip",
        data: payload)
    let body = try MultipartBody(parts: [part])
    return UploadRequest(
        batchID: header.batchID, contentType: body.contentType, contentLength: body.contentLength,
        fileExtension: "multipart", body: .data(try body.data()))
}

/// The printed lines: what was gathered per type, then what the receiver said.
///
/// - Parameters:
///   - gathered: Every type's changes.
///   - receipt: The transport's receipt for the batch.
/// - Returns: Two lines, the same for every style that gathered the same changes.
public func describeUpload(_ gathered: [GatheredChanges], receipt: UploadReceipt) -> [String] {
    let sorted = ordered(gathered)
    let counts = sorted.map { "\($0.type.identifier): \($0.samples.count)" }.joined(separator: ", ")
    let samples = sorted.reduce(0) { $0 + $1.samples.count }
    let deletions = sorted.reduce(0) { $0 + $1.deletedObjects.count }
    return [
        "gathered \(counts)",
        "uploaded 1 batch: \(samples) samples, \(deletions) deletions (\(receipt.disposition.rawValue))",
    ]
}

/// `gathered` in ``ObserveAndUploadExample/observedTypes`` order (a task group yields in finishing order).
private func ordered(_ gathered: [GatheredChanges]) -> [GatheredChanges] {
    ObserveAndUploadExample.observedTypes.compactMap { type in gathered.first { $0.type == type } }
}
