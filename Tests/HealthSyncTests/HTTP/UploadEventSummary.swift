import FlowKitTesting
import Foundation
import HealthSync
import Testing

/// An upload event as a short string: `start N ID BYTES`, `sent S/T`, `retry after N in DELAY: REASON`,
/// `finished DISPOSITION`, `failed: ERROR`.
func uploadEventSummary(_ event: UploadEvent) -> String {
    switch event {
    case .attemptStarted(let attempt, let batchID, let total): "start \(attempt) \(batchID) \(total)"
    case .bytesSent(let sent, let total): "sent \(sent)/\(total)"
    case .retryScheduled(let attempt, let delay, let reason): "retry after \(attempt) in \(delay): \(reason)"
    case .finished(let receipt): "finished \(receipt.disposition.rawValue)"
    case .failed(let error): "failed: \(error)"
    }
}

/// Reads an upload's events to the end as ``uploadEventSummary(_:)`` strings.
func uploadEventSummaries(_ events: AsyncStream<UploadEvent>) async -> [String] {
    var summaries: [String] = []
    for await event in events { summaries.append(uploadEventSummary(event)) }
    return summaries
}

/// Runs an observed upload to its end on a manual clock: after each `retryScheduled` it waits for the retry's
/// timer, checks that the timer is due exactly the reported delay from now, and advances the clock by it.
/// Returns every event and the delays.
func driveUpload(
    _ upload: ObservedUpload, on scheduler: ManualScheduler
) async -> (events: [UploadEvent], delays: [Duration]) {
    var events: [UploadEvent] = []
    var delays: [Duration] = []
    for await event in upload.events {
        events.append(event)
        if case .retryScheduled(_, let delay, _) = event {
            delays.append(delay)
            await scheduler.waitForPendingWork()
            #expect(scheduler.nextDeadline == scheduler.now + delay)
            scheduler.advance(by: delay)
        }
    }
    return (events, delays)
}

/// The reasons of an upload's `retryScheduled` events, then its `failed` error, as typed HTTP errors.
func uploadFailures(_ events: [UploadEvent]) -> [HTTPUploadError?] {
    events.compactMap { event -> HTTPUploadError?? in
        switch event {
        case .retryScheduled(_, _, let reason): .some(reason as? HTTPUploadError)
        case .failed(let error): .some(error as? HTTPUploadError)
        case .attemptStarted, .bytesSent, .finished: nil
        }
    }
}
