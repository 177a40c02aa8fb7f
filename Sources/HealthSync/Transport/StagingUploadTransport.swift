import Foundation

/// An ``UploadTransport`` that can do the part of an upload that delivers nothing ahead of time, so that the
/// delivery itself is short: ``OutboxTransport`` writes and `fsync`s the body under a temp name ahead, and its
/// delivery is the `link` to the final name and the folder's `fsync`.
///
/// ``SyncEngine`` stages the body of the batch it prepares ahead while the batch before it is in flight, and calls ``deliver(_:as:reporter:)`` only once that batch is pending — its body and record durable in
/// the state folder — with the request whose body is that pending file's, and only when the staged body's bytes
/// are the pending record's (same batch ID, length and CRC-32, which the engine computed from the bytes it gave
/// ``stageBody(_:)``). Otherwise it calls ``discard(_:)`` and uploads as any transport.
///
/// What an adopter guarantees:
/// - **A staged body is no delivery.** Nothing a receiver acts on and nothing listed as delivered holds it until
///   ``deliver(_:as:reporter:)`` returns a receipt. One never delivered is removed by ``discard(_:)``; one a crash
///   left behind is the transport's own to remove (``OutboxTransport`` removes its temp files when next created,
///   ``OutboxTransport/removedLeftovers``), as the engine sends that batch again.
/// - **Delivery answers as an upload would.** ``deliver(_:as:reporter:)`` delivers exactly the bytes staged and
///   fulfils ``UploadTransport/upload(_:reporter:)``'s contract for `request`: a receipt only once the receiver
///   holds the batch durably, ``UploadReceipt/Disposition/duplicate`` for a batch already there, and the same
///   reports (``UploadReporter/attemptStarted(batchID:totalBytes:)``, the bytes sent).
/// - Both run on the caller's thread and may block (the engine calls them on threads of its own, never on the
///   concurrency pool); they are called from any thread, one staged body at a time each.
public protocol StagingUploadTransport: UploadTransport {
    /// A body staged ahead, waiting for ``deliver(_:as:reporter:)`` or ``discard(_:)``.
    associatedtype StagedBody: Sendable

    /// Writes `request`'s body where it will be delivered from, delivering nothing.
    /// - Parameter request: The upload, its body read once here.
    /// - Returns: The staged body.
    /// - Throws: Any error; nothing is left behind. (The engine then uploads the batch the ordinary way.)
    func stageBody(_ request: UploadRequest) throws -> StagedBody

    /// Delivers the staged body as `request`: the part of the upload that makes it visible to the receiver.
    /// - Parameters:
    ///   - staged: What ``stageBody(_:)`` gave for a request with `request`'s batch ID and bytes.
    ///   - request: The upload, as ``UploadTransport/upload(_:reporter:)`` would be given it.
    ///   - reporter: Where the attempt and its bytes are reported.
    /// - Returns: The receipt, once the receiver holds the batch durably.
    /// - Throws: The upload's error; the staged body is then discarded, and the batch not delivered.
    func deliver(_ staged: StagedBody, as request: UploadRequest, reporter: UploadReporter) throws -> UploadReceipt

    /// Removes a staged body that is not to be delivered.
    /// - Parameter staged: What ``stageBody(_:)`` gave.
    func discard(_ staged: StagedBody)
}
