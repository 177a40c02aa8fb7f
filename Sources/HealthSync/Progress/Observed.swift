import FlowKit
import Foundation

/// Work under way that can be watched: a promise of its outcome, a Foundation `Progress` and an `AsyncStream`
/// of its events — ``ObservedUpload`` and ``ObservedSync``.
///
/// The stream ends right after its last event on every path: success, failure, cancellation (``cancel()``,
/// cancelling the promise, or `progress.cancel()`). It buffers without bound, so a consumer that is slow or stops
/// early never blocks the work; events yielded after the consumer stopped are dropped.
///
/// - Note: `Sendable`: a promise, a thread-safe `Progress` and an `AsyncStream` of `Sendable` events.
public struct Observed<Value: Sendable, Event: Sendable>: Sendable {
    let promise: Promise<Value>
    /// The work's progress; cancellable (cancelling cancels the work).
    public let progress: Progress
    /// The work's events in order; finishes after the last (`finished` or `failed`).
    public let events: AsyncStream<Event>

    /// The outcome, awaited.
    ///
    /// - Throws: The work's error, or `CancellationError`.
    public var value: Value {
        get async throws { try await promise.value }
    }

    /// Cancels the work; the stream then ends with its `failed(CancellationError())` event.
    public func cancel() {
        promise.cancel()
    }

    /// Starts work watched through `progress` and an unbounded event stream that finishes after the event
    /// `isLast` accepts. `start` gets the stream's sink and returns the work's promise and its reporter's `settle`,
    /// which is called once the promise settles — also when the promise itself is cancelled before the work
    /// answers.
    init(
        progress: Progress, finishingAfter isLast: @escaping @Sendable (Event) -> Bool,
        start: (_ emit: @escaping @Sendable (Event) -> Void) -> (
            promise: Promise<Value>, settle: @Sendable (Result<Value, any Error>) -> Void
        )
    ) {
        let (events, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let (work, settle) = start { event in
            continuation.yield(event)
            if isLast(event) { continuation.finish() }
        }
        let promise = work.tap(on: .immediate) { settle($0) }
        // Also settles when `promise` itself is cancelled before the work answers; the caller handles the
        // promise's error, not this branch.
        _ = promise.tap(on: .immediate) { settle($0) }
        progress.isCancellable = true
        progress.cancellationHandler = { promise.cancel() }
        self.promise = promise
        self.progress = progress
        self.events = events
    }
}
