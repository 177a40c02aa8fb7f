import Dispatch
import HealthFlow

/// The one batch of samples being written into the store on a thread of its own while the import reads the next.
///
/// The import hands a full batch over (``start(_:with:)``) and reads on; before it hands the next one over, writes
/// anything else, or ends (whether it succeeds, fails or is cancelled), it waits for the batch in flight
/// (``settle()``), so the store sees the import's writes in the order they were read, one at a time, and no write
/// outlives the import. The batch's outcome (what was new to the store, or the store's error) reaches the import
/// there, one batch late: a store error stops the import at the next hand-over, with every batch before it written.
///
/// `@unchecked Sendable`: `inFlight` is read and written by the import's thread only; `outcome` is written by the
/// queue's one job before it signals `done`, and read and cleared by the import's thread only after waiting on
/// `done` (the semaphore orders the two), while no other job is queued (`start` requires the batch before settled).
final class BatchWriteAhead: @unchecked Sendable {
    /// What the write of the batch in flight came to: the samples that were new to the store, or the error.
    typealias Outcome = (batch: [HealthSample], result: Result<[HealthSample], any Error>)

    private let queue = DispatchQueue(label: "HealthExport batch writer")
    private let done = DispatchSemaphore(value: 0)
    /// Written by the queue's job before it signals `done`, read by the import after waiting on it.
    private var outcome: Outcome?
    private var inFlight = false

    /// Starts writing `batch` with `writer`; the caller has settled the batch before it.
    func start(_ batch: [HealthSample], with writer: ExportWriter) {
        precondition(!inFlight, "a batch is already in flight")
        inFlight = true
        queue.async { [self] in
            outcome = (batch, Result { try writer.write(batch) })
            done.signal()
        }
    }

    /// Waits for the batch in flight, if any, and gives its outcome.
    func settle() -> Outcome? {
        guard inFlight else { return nil }
        done.wait()
        inFlight = false
        defer { outcome = nil }
        return outcome
    }
}
