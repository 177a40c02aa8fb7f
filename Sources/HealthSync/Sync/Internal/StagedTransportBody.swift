import Foundation

/// A batch body staged ahead in the engine's transport (``StagingUploadTransport/stageBody(_:)``), with the CRC-32
/// of the very bytes the engine gave it: the engine delivers it (``deliver(as:reporter:)``) only for a pending
/// record with the same batch ID, length and CRC-32, and discards it otherwise.
struct StagedTransportBody: Sendable {
    let batchID: UUID
    let length: Int64
    /// The CRC-32 (zlib) of the bytes staged.
    let checksum: UInt32
    private let deliverBody: @Sendable (UploadRequest, UploadReporter) throws -> UploadReceipt
    private let discardBody: @Sendable () -> Void

    /// Stages `prepared`'s body in `transport` when the transport stages bodies (``StagingUploadTransport``), with
    /// the CRC-32 of the body read just before from the same source: the very bytes for a body held in memory; for
    /// a body spilled to its temp file, that file (0600, in the private temp folder, written by the build only).
    /// - Returns: The staged body, or `nil` when the transport does not stage bodies.
    /// - Throws: The spilled body's read error or the transport's; nothing is then staged.
    static func stage(_ prepared: PreparedSyncBatch, in transport: any UploadTransport) throws -> Self? {
        guard let staging = transport as? any StagingUploadTransport else { return nil }
        var checksum = PendingBodyChecksum()
        try prepared.request.body.forEachChunk { checksum.update($0) }
        return try stage(prepared.request, checksum: checksum.value, with: staging)
    }

    private static func stage<Transport: StagingUploadTransport>(
        _ request: UploadRequest, checksum: UInt32, with transport: Transport
    ) throws -> Self {
        let staged = try transport.stageBody(request)
        return StagedTransportBody(
            batchID: request.batchID, length: request.contentLength, checksum: checksum,
            deliverBody: { try transport.deliver(staged, as: $0, reporter: $1) },
            discardBody: { transport.discard(staged) })
    }

    /// Whether it holds the body `record` makes pending: same batch ID, length and CRC-32.
    func holds(_ record: PendingBatch) -> Bool {
        batchID == record.batchID && length == record.bodyLength && checksum == record.bodyCRC32
    }

    /// Delivers it as `request` (``StagingUploadTransport/deliver(_:as:reporter:)``), on the caller's thread.
    func deliver(as request: UploadRequest, reporter: UploadReporter) throws -> UploadReceipt {
        try deliverBody(request, reporter)
    }

    /// Removes it (``StagingUploadTransport/discard(_:)``).
    func discard() {
        discardBody()
    }
}
