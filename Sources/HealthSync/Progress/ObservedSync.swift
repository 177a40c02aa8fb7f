import FlowKit
import Foundation

/// A sync run under way that can be watched: its report, a `Progress` in samples and a stream of ``SyncEvent``s.
/// Made by ``SyncEngine/observedSync()``.
///
/// The stream ends after `finished` or `failed` on every path, cancellation included. It buffers without bound;
/// a run emits a few events per batch plus its uploads' (bounded) events, so a consumer that stops early never
/// blocks the run.
///
/// - Note: `Sendable`: a promise, a thread-safe `Progress` and an `AsyncStream` of `Sendable` events.
public struct ObservedSync: Sendable {
    /// Settles like the run; cancelling it cancels the run.
    public let report: Promise<SyncReport>
    /// Samples and deletions committed, out of those known so far (the total grows batch by batch).
    public let progress: Progress
    /// The run's events in order; finishes after `finished` or `failed`.
    public let events: AsyncStream<SyncEvent>

    /// The report, awaited: the async twin of ``report``.
    ///
    /// - Throws: The run's error, or `CancellationError`.
    public var value: SyncReport {
        get async throws { try await report.value }
    }

    /// Cancels the run; anchors stay at the last committed batch.
    public func cancel() {
        report.cancel()
    }
}

extension SyncEngine {
    /// Starts one sync run, as ``sync()-(_)``, and returns a handle to watch it.
    ///
    /// - Returns: The report promise, progress and events of this run.
    public func observedSync() -> ObservedSync {
        let (events, continuation) = AsyncStream<SyncEvent>.makeStream(bufferingPolicy: .unbounded)
        let progress = Progress(totalUnitCount: 0)
        let reporter = SyncReporter(progress: progress) { event in
            continuation.yield(event)
            switch event {
            case .finished, .failed: continuation.finish()
            case .batchStarted, .upload, .batchCommitted: break
            }
        }
        let report = Promise { try await sync(reporter: reporter) }.tap(on: .immediate) { reporter.settle($0) }
        // Also settles when `report` itself is cancelled; the caller handles the report's error, not this branch.
        _ = report.tap(on: .immediate) { reporter.settle($0) }
        progress.isCancellable = true
        progress.cancellationHandler = { report.cancel() }
        return ObservedSync(report: report, progress: progress, events: events)
    }
}
