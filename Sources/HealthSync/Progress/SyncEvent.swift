import Foundation

/// One thing that happened during an observed sync run, in order. Made by ``SyncEngine/observedSync()``.
///
/// A run reports, per batch, `batchStarted`, the batch's ``UploadEvent``s wrapped in `upload` (attempts, bytes,
/// retries; not its `finished`/`failed`, which `batchCommitted` or the run's `failed` replace), then
/// `batchCommitted` once its anchors are saved; and finally `finished` or `failed`, after which the stream ends.
/// Events carry IDs and counts, never health values.
public enum SyncEvent: Sendable, CustomStringConvertible {
    /// Batch `number` (1-based in this run) with `samples` samples and deletions and a body of `bytes` bytes is
    /// about to be uploaded (a batch left pending by an earlier run is batch 1).
    case batchStarted(number: Int, batchID: UUID, samples: Int, bytes: Int64)
    /// An event of the current batch's upload.
    case upload(UploadEvent)
    /// Batch `number` was acknowledged and its anchors committed.
    case batchCommitted(number: Int, batchID: UUID, samples: Int, disposition: UploadReceipt.Disposition)
    /// The run ended: everything was sent. The last event.
    case finished(SyncReport)
    /// The run failed or was cancelled; anchors stay at the last committed batch. The last event.
    case failed(any Error)

    /// A one-line description (IDs and counts only).
    public var description: String {
        switch self {
        case .batchStarted(let number, let batchID, let samples, let bytes):
            "batch \(number) started: \(batchID.uuidString), \(samples) samples, \(bytes) bytes"
        case .upload(let event): "upload: \(event)"
        case .batchCommitted(let number, let batchID, let samples, let disposition):
            "batch \(number) committed: \(batchID.uuidString), \(samples) samples, \(disposition.rawValue)"
        case .finished(let report): "finished: \(report.batches) batches"
        case .failed(let error): "failed: \(error)"
        }
    }
}
