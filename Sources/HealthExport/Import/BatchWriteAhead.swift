import Dispatch
import HealthFlow

/// The batches of samples being prepared and written into the store while the import reads on: three stages, each
/// on a thread of its own, so that two cores share the work whichever stage is the longest.
///
/// The import hands each full batch over (``start(_:with:)``) and reads on. A batch is first prepared for the
/// store (``ExportWriter/prepare(_:)``: checked and encoded for its log, without the store's lock) on one serial
/// queue, then written on another; up to ``depth`` batches may be in flight, so a batch whose write takes long
/// (the store flushing or merging its tables) does not stop the reading. Before it writes anything else, or ends
/// (whether it succeeds, fails or is cancelled), the import waits for every batch in flight (``settle()`` until
/// `nil`), so the store sees the import's writes in the order they were read, one at a time, and no write outlives
/// the import. Each batch's outcome (what was new to the
/// store, or the store's error) reaches the import in order, when it settles that batch.
///
/// Once a write fails, or a batch finds the import cancelled before its write starts, no later batch is handed
/// to the store: each is settled with ``NotWritten`` (the import stops with the earlier error, which it settles
/// first), so a store error stops the import with every batch before it written and none after it started.
///
/// `@unchecked Sendable`: `inFlight` is read and written by the import's thread only; `stopped` by the writing
/// queue's jobs only, which run one at a time; each slot's `outcome` is written by its job before it signals the
/// slot's semaphore, and read by the import's thread only after waiting on it (the semaphore orders the two).
final class BatchWriteAhead: @unchecked Sendable {
    /// What the write of a batch came to: the samples that were new to the store, or the error.
    typealias Outcome = (batch: [HealthSample], result: Result<[HealthSample], any Error>)

    /// The outcome of a batch handed over after a write failed or the import was cancelled: never written.
    struct NotWritten: Error {}

    /// How many batches may be in flight at once.
    let depth: Int
    private let isCancelled: @Sendable () -> Bool
    private let preparing = DispatchQueue(label: "HealthExport batch preparer")
    private let writing = DispatchQueue(label: "HealthExport batch writer")
    /// The batches handed over and not yet settled, oldest first.
    private var inFlight: [Slot] = []
    /// Set by the job whose write failed or that found the import cancelled: the jobs after it write nothing.
    private var stopped = false

    /// One batch's outcome, and the semaphore its job signals once the outcome is written.
    private final class Slot: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var outcome: Outcome?
    }

    /// - Parameters:
    ///   - depth: How many batches may be in flight (at least one).
    ///   - isCancelled: Asked by each batch's job before its write starts.
    init(depth: Int, isCancelled: @escaping @Sendable () -> Bool) {
        self.depth = max(1, depth)
        self.isCancelled = isCancelled
    }

    /// Whether ``depth`` batches are in flight: the import settles the oldest before it hands another over.
    var isFull: Bool { inFlight.count >= depth }

    /// Starts preparing and then writing `batch` with `writer`, after the batches in flight; the caller has made
    /// room (``isFull``). Preparing is skipped once the import is cancelled; a batch the store cannot take prepared
    /// is written as it is (``ExportWriter/write(_:)``).
    func start(_ batch: [HealthSample], with writer: ExportWriter) {
        precondition(!isFull, "\(depth) batches are already in flight")
        let slot = Slot()
        inFlight.append(slot)
        preparing.async { [self] in
            let prepared = isCancelled() ? nil : writer.prepare(batch)
            writing.async { [self] in
                let result: Result<[HealthSample], any Error>
                if stopped {
                    result = .failure(NotWritten())
                } else if isCancelled() {
                    result = .failure(CancellationError())
                } else {
                    result = Result { try prepared.map(writer.write) ?? writer.write(batch) }
                }
                if case .failure = result { stopped = true }
                slot.outcome = (batch, result)
                slot.done.signal()
            }
        }
    }

    /// Waits for the oldest batch in flight, if any, and gives its outcome.
    func settle() -> Outcome? {
        guard !inFlight.isEmpty else { return nil }
        let slot = inFlight.removeFirst()
        slot.done.wait()
        return slot.outcome
    }
}
