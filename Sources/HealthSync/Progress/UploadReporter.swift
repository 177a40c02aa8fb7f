import FlowKit
import Foundation

/// Where a transport reports an upload's progress: attempts, body bytes, retries and the outcome, as
/// ``UploadEvent``s and on a Foundation `Progress`.
///
/// Transports call ``attemptStarted(batchID:totalBytes:)`` at the start of every attempt and ``add(sentBytes:)``
/// as the body goes out; an ``Uploader`` calls ``retryScheduled(attempt:delay:reason:)``; whoever started the
/// upload calls ``settle(_:)`` once it is over. `progress.totalUnitCount` is the body length and
/// `completedUnitCount` the bytes sent by the current attempt (back to 0 when an attempt starts, the body length
/// on success). Events after ``settle(_:)`` are ignored, so a late byte count never follows `finished`.
///
/// Byte events are coalesced: at most one per 1/100 of the body per attempt (plus the last byte), so one upload
/// emits a bounded number of events however large the body; `progress` gets every update.
///
/// - Note: `Sendable`: its state is behind a `LockedState`; `onEvent` is called under that lock (so events arrive in
///   order from any thread) and must return quickly without calling back into the reporter.
public final class UploadReporter: Sendable {
    private struct State {
        var attempt = 0
        var total: Int64 = 0
        var sent: Int64 = 0
        var lastReported: Int64 = -1
        var settled = false
    }

    /// The upload's progress: total = body length, completed = bytes sent by the current attempt.
    public let progress: Progress
    private let onEvent: (@Sendable (UploadEvent) -> Void)?
    private let state = LockedState(State())

    /// A reporter that keeps `progress` and forwards every event to `onEvent`.
    ///
    /// - Parameters:
    ///   - progress: The progress to update (a new one with an unknown total by default).
    ///   - onEvent: Receives each event, in order; `nil` to keep only `progress`.
    public init(progress: Progress = Progress(totalUnitCount: -1), onEvent: (@Sendable (UploadEvent) -> Void)? = nil) {
        self.progress = progress
        self.onEvent = onEvent
    }

    /// A reporter nobody observes, for the plain ``UploadTransport/upload(_:)``.
    ///
    /// - Returns: A fresh reporter with no event handler.
    public static func unobserved() -> UploadReporter {
        UploadReporter()
    }

    /// The attempts started so far.
    public var attempts: Int { state.withLock { $0.attempt } }

    /// A new attempt starts sending `totalBytes` bytes of `batchID`; resets the byte count.
    ///
    /// - Parameters:
    ///   - batchID: The batch.
    ///   - totalBytes: The exact body length.
    public func attemptStarted(batchID: UUID, totalBytes: Int64) {
        state.withLock { state in
            guard !state.settled else { return }
            state.attempt += 1
            state.total = totalBytes
            state.sent = 0
            state.lastReported = -1
            progress.totalUnitCount = totalBytes
            progress.completedUnitCount = 0
            onEvent?(.attemptStarted(attempt: state.attempt, batchID: batchID, totalBytes: totalBytes))
        }
    }

    /// `count` more body bytes of the current attempt went out.
    ///
    /// - Parameter count: The bytes just sent.
    public func add(sentBytes count: Int64) {
        guard count > 0 else { return }
        state.withLock { state in
            guard !state.settled, state.attempt > 0 else { return }
            state.sent = min(state.sent + count, max(state.total, 0))
            report(&state)
        }
    }

    /// The whole body of the current attempt went out (for transports that learn it only at the end).
    public func bodySent() {
        state.withLock { state in
            guard !state.settled, state.attempt > 0 else { return }
            state.sent = max(state.total, 0)
            report(&state)
        }
    }

    /// Attempt `attempt` failed with `reason`; the next one starts after `delay`.
    ///
    /// - Parameters:
    ///   - attempt: The attempt that failed (1-based).
    ///   - delay: The wait before the next attempt.
    ///   - reason: The attempt's error.
    public func retryScheduled(attempt: Int, delay: Duration, reason: any Error) {
        state.withLock { state in
            guard !state.settled else { return }
            onEvent?(.retryScheduled(attempt: attempt, delay: delay, reason: reason))
        }
    }

    /// The upload is over: reports `finished` (completing `progress`) or `failed`, once; later calls and
    /// events are ignored.
    ///
    /// - Parameter result: The upload's outcome.
    public func settle(_ result: Result<UploadReceipt, any Error>) {
        state.withLock { state in
            guard !state.settled else { return }
            state.settled = true
            switch result {
            case .success(let receipt):
                if state.total <= 0 { progress.totalUnitCount = max(receipt.bytesSent, 0) }
                progress.completedUnitCount = progress.totalUnitCount
                onEvent?(.finished(receipt))
            case .failure(let error):
                onEvent?(.failed(error))
            }
        }
    }

    /// Updates `progress` and emits a coalesced byte event (every 1% of the body, and the last byte).
    private func report(_ state: inout State) {
        progress.completedUnitCount = state.sent
        let step = max(state.total / 100, 1)
        guard state.sent != state.lastReported,
            state.sent == state.total || state.sent - max(state.lastReported, 0) >= step
        else { return }
        state.lastReported = state.sent
        onEvent?(.bytesSent(sent: state.sent, total: state.total))
    }
}
