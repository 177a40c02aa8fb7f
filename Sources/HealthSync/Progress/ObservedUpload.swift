import FlowKit
import Foundation

/// An upload under way that can be watched: its receipt, a Foundation `Progress` and an `AsyncStream` of
/// ``UploadEvent``s. Made by ``UploadTransport/observedUpload(_:)``.
///
/// The stream ends right after its last event (`finished` or `failed`) on every path: success, failure,
/// cancellation (``cancel()``, cancelling ``receipt``, or `progress.cancel()`). It buffers without bound, but
/// one upload emits a bounded number of events (byte events are coalesced to about 100 per attempt), so a
/// consumer that is slow or stops early never blocks the upload and holds little memory; events yielded after
/// the consumer stopped are dropped.
///
/// - Note: `Sendable`: a promise, a thread-safe `Progress` and an `AsyncStream` (Sendable for `Sendable` elements).
public struct ObservedUpload: Sendable {
    /// Settles like the upload; cancelling it cancels the upload.
    public let receipt: Promise<UploadReceipt>
    /// Body bytes of the current attempt out of the body length; cancellable (cancelling cancels the upload).
    public let progress: Progress
    /// The upload's events in order; finishes after `finished` or `failed`.
    public let events: AsyncStream<UploadEvent>

    /// The receipt, awaited: the async twin of ``receipt``.
    ///
    /// - Throws: The upload's error, or `CancellationError`.
    public var value: UploadReceipt {
        get async throws { try await receipt.value }
    }

    /// Cancels the upload (the URL task under way or the wait before a retry); the stream then ends with
    /// `failed(CancellationError())`.
    public func cancel() {
        receipt.cancel()
    }
}

extension UploadTransport {
    /// Starts uploading `request` and returns a handle to watch it.
    ///
    /// - Parameter request: The upload.
    /// - Returns: The receipt promise, progress and events of this upload.
    public func observedUpload(_ request: UploadRequest) -> ObservedUpload {
        let (events, continuation) = AsyncStream<UploadEvent>.makeStream(bufferingPolicy: .unbounded)
        let progress = Progress(totalUnitCount: request.contentLength)
        let reporter = UploadReporter(progress: progress) { event in
            continuation.yield(event)
            if event.isTerminal { continuation.finish() }
        }
        let receipt = upload(request, reporter: reporter).tap(on: .immediate) { reporter.settle($0) }
        // Also settles when `receipt` itself is cancelled before the transport's promise answers; the caller
        // handles the receipt's error, not this branch.
        _ = receipt.tap(on: .immediate) { reporter.settle($0) }
        progress.isCancellable = true
        progress.cancellationHandler = { receipt.cancel() }
        return ObservedUpload(receipt: receipt, progress: progress, events: events)
    }
}
