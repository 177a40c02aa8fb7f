import Foundation

/// One thing that happened during an observed upload, in the order it happened.
///
/// An upload reports `attemptStarted`, then `bytesSent` as the body goes out, then either `finished`, `failed`,
/// or `retryScheduled` followed by the next `attemptStarted`. `finished` or `failed` is always the last event;
/// the stream ends right after it. Events never carry body bytes or health values.
public enum UploadEvent: Sendable, CustomStringConvertible {
    /// Attempt `attempt` (1-based) began sending `totalBytes` bytes of batch `batchID`.
    case attemptStarted(attempt: Int, batchID: UUID, totalBytes: Int64)
    /// The current attempt has sent `sent` of `total` body bytes (a stream's bytes are counted as the transport
    /// reads them; see ``HTTPTransport``).
    case bytesSent(sent: Int64, total: Int64)
    /// Attempt `attempt` failed with `reason` (the typed error, e.g. ``HTTPUploadError``); the next attempt starts
    /// after `delay` (a server's `Retry-After` when it sent one, the back-off otherwise).
    case retryScheduled(attempt: Int, delay: Duration, reason: any Error)
    /// The upload succeeded: the receiver holds the batch. The last event.
    case finished(UploadReceipt)
    /// The upload gave up (or was cancelled: `CancellationError`). The last event.
    case failed(any Error)

    /// Whether this is the last event of an upload (`finished` or `failed`).
    public var isTerminal: Bool {
        switch self {
        case .finished, .failed: true
        case .attemptStarted, .bytesSent, .retryScheduled: false
        }
    }

    /// A one-line description (IDs, counts, durations and error descriptions only).
    public var description: String {
        switch self {
        case .attemptStarted(let attempt, let batchID, let totalBytes):
            "attempt \(attempt) started: batch \(batchID.uuidString), \(totalBytes) bytes"
        case .bytesSent(let sent, let total): "sent \(sent) of \(total) bytes"
        case .retryScheduled(let attempt, let delay, let reason):
            "attempt \(attempt) failed (\(reason)); retry in \(delay)"
        case .finished(let receipt): "finished: \(receipt.disposition.rawValue)"
        case .failed(let error): "failed: \(error)"
        }
    }
}
