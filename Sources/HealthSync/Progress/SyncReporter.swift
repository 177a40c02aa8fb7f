import FlowKit
import Foundation

/// Collects a sync run's progress for ``SyncEngine/observedSync()``: batch events, each batch's upload events,
/// and a `Progress` counted in samples and deletions.
///
/// `progress.completedUnitCount` is the samples and deletions committed; `totalUnitCount` grows as each batch
/// starts (committed + the batch in flight), since a run learns its size one batch at a time.
/// `Sendable`: its state is behind a `LockedState`; `onEvent` is called under it (events stay in order).
final class SyncReporter: Sendable {
    private struct State {
        var batches = 0
        var committed: Int64 = 0
        var settled = false
    }

    let progress: Progress
    private let onEvent: @Sendable (SyncEvent) -> Void
    private let state = LockedState(State())

    init(progress: Progress, onEvent: @escaping @Sendable (SyncEvent) -> Void) {
        self.progress = progress
        self.onEvent = onEvent
    }

    /// A batch is about to be uploaded; returns the reporter its upload reports to.
    func batchStarted(_ pending: PendingBatch) -> UploadReporter {
        let samples = Self.count(pending)
        state.withLock { state in
            guard !state.settled else { return }
            state.batches += 1
            progress.totalUnitCount = state.committed + Int64(samples)
            onEvent(
                .batchStarted(
                    number: state.batches, batchID: pending.batchID, samples: samples, bytes: pending.bodyLength))
        }
        return UploadReporter { [self] event in
            guard !event.isTerminal else { return }
            state.withLock { state in
                if !state.settled { onEvent(.upload(event)) }
            }
        }
    }

    /// The batch's anchors were committed.
    func batchCommitted(_ pending: PendingBatch, receipt: UploadReceipt) {
        let samples = Self.count(pending)
        state.withLock { state in
            guard !state.settled else { return }
            state.committed += Int64(samples)
            progress.completedUnitCount = state.committed
            onEvent(
                .batchCommitted(
                    number: state.batches, batchID: pending.batchID, samples: samples, disposition: receipt.disposition)
            )
        }
    }

    /// The run is over; reports `finished` or `failed` once.
    func settle(_ result: Result<SyncReport, any Error>) {
        state.withLock { state in
            guard !state.settled else { return }
            state.settled = true
            switch result {
            case .success(let report):
                progress.totalUnitCount = state.committed
                progress.completedUnitCount = state.committed
                onEvent(.finished(report))
            case .failure(let error):
                onEvent(.failed(error))
            }
        }
    }

    private static func count(_ pending: PendingBatch) -> Int {
        pending.samples.values.reduce(0, +) + pending.deletions.values.reduce(0, +)
    }
}
