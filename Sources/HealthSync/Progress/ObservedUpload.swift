import FlowKit
import Foundation

/// An upload under way that can be watched: its receipt, a `Progress` in body bytes of the current attempt out of
/// the body length, and a stream of ``UploadEvent``s. Made by ``UploadTransport/observedUpload(_:)``; cancelling it
/// cancels the URL task under way or the wait before a retry.
///
/// One upload emits a bounded number of events (byte events are coalesced to about 100 per attempt), so a slow
/// consumer holds little memory.
public typealias ObservedUpload = Observed<UploadReceipt, UploadEvent>

extension Observed where Value == UploadReceipt {
    /// Settles like the upload; cancelling it cancels the upload.
    public var receipt: Promise<UploadReceipt> { promise }
}

extension UploadTransport {
    /// Starts uploading `request` and returns a handle to watch it.
    ///
    /// - Parameter request: The upload.
    /// - Returns: The receipt promise, progress and events of this upload.
    public func observedUpload(_ request: UploadRequest) -> ObservedUpload {
        let progress = Progress(totalUnitCount: request.contentLength)
        return ObservedUpload(progress: progress, finishingAfter: \.isTerminal) { emit in
            let reporter = UploadReporter(progress: progress, onEvent: emit)
            return (upload(request, reporter: reporter), reporter.settle)
        }
    }
}
