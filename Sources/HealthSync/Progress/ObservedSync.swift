import FlowKit
import Foundation

/// A sync run under way that can be watched: its report, a `Progress` in samples and deletions committed, out of
/// those known so far (the total grows batch by batch), and a stream of ``SyncEvent``s. Made by
/// ``SyncEngine/observedSync()``; cancelling it leaves the anchors at the last committed batch.
///
/// A run emits a few events per batch plus its uploads' (bounded) events.
public typealias ObservedSync = Observed<SyncReport, SyncEvent>

extension Observed where Value == SyncReport {
    /// Settles like the run; cancelling it cancels the run.
    public var report: Promise<SyncReport> { promise }
}

extension SyncEngine {
    /// Starts one sync run, as ``sync()-(_)``, and returns a handle to watch it.
    ///
    /// - Returns: The report promise, progress and events of this run.
    public func observedSync() -> ObservedSync {
        let progress = Progress(totalUnitCount: 0)
        return ObservedSync(
            progress: progress,
            finishingAfter: { event in
                switch event {
                case .finished, .failed: true
                case .batchStarted, .upload, .batchCommitted: false
                }
            },
            start: { emit in
                let reporter = SyncReporter(progress: progress, onEvent: emit)
                return (Promise { try await sync(reporter: reporter) }, reporter.settle)
            })
    }
}
