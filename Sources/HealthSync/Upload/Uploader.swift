import FlowKit

/// Wraps any ``UploadTransport`` with retries: exponential back-off with jitter on a `FlowScheduler`,
/// honouring `Retry-After`, as decided by an ``UploadRetryPolicy``.
///
/// Each attempt calls the transport again with the same request, so the idempotency key is the same and the
/// body is read afresh (a new stream per attempt). It is itself an ``UploadTransport``. Cancelling the promise
/// cancels the attempt under way (and its URL task) or the wait before the next one.
///
/// ## What is retried
///
/// What an ``HTTPTransport`` attempt reports for each server fault (measured on Linux, FoundationNetworking,
/// against a loopback server; `Tests/HealthSyncTests/HTTP/HTTPFaultTests.swift`) and what the default
/// ``UploadRetryPolicy`` does with it:
///
/// | Fault | Typed error | Retried |
/// |---|---|---|
/// | 413 sent before the body is read, then close or drain (2 kB `Data` and 4 MB streamed) | `.http(413, nil, message)` | no |
/// | 2xx before the whole body went out (on the request's head, or on accept) | `.answeredBeforeBodySent(status)` | yes |
/// | other 4xx (400, 401, 403, 404, 409, 422, …) | `.http(status, retryAfter, message)` | no |
/// | 408, 429, 5xx | `.http(status, retryAfter, message)` | yes, after `Retry-After` when sent, else the back-off |
/// | drop after N body bytes, clean close (FIN) | `.connection(code: -1)`; −1011 when the whole body was already in the socket | yes |
/// | drop after N body bytes, reset (RST) | `.connection(code: -1005)` | yes |
/// | whole body read, then close without a reply | `.connection(code: -1011)` | yes |
/// | answer later than the timeout | `.connection(code: -1001)` | yes |
/// | server stops reading the body (stalled) | `.connection(code: -1001)` | yes |
/// | cannot connect, host not found, offline | `.connection(code: -1004 / -1003 / -1009)` | yes |
/// | garbage instead of a status line | `.connection(code: -1002)` | no |
/// | truncated answer (body shorter than its Content-Length) | `.connection(code: -1)` | yes |
/// | 2xx with a non-JSON body | none: a stored receipt | — |
/// | body unreadable, length mismatch | ``UploadError`` | no |
/// | cancellation | `CancellationError` | no |
///
/// A retry is always safe: every attempt carries the same `Idempotency-Key`, so a server that did store the
/// batch before the connection broke stores it once. After the last attempt the last attempt's error is
/// returned. ``observedUpload(_:)`` reports each retry with its delay and reason (``UploadEvent``).
public struct Uploader: ReportingUploadTransport {
    /// The transport each attempt goes through.
    public let transport: any UploadTransport
    /// When and how to retry.
    public let policy: UploadRetryPolicy
    private let scheduler: (any FlowScheduler)?

    /// Creates an uploader.
    ///
    /// - Parameters:
    ///   - transport: The transport.
    ///   - policy: The retry policy.
    ///   - scheduler: The clock for the waits; FlowKit's default scheduler when `nil`.
    public init(
        transport: any UploadTransport, policy: UploadRetryPolicy = UploadRetryPolicy(),
        scheduler: (any FlowScheduler)? = nil
    ) {
        self.transport = transport
        self.policy = policy
        self.scheduler = scheduler
    }

    /// Uploads `request`, retrying as the policy says, and reports every attempt (through the transport) and
    /// every retry with its wait and reason to `reporter`.
    ///
    /// - Parameters:
    ///   - request: The upload.
    ///   - reporter: Where attempts, bytes and retries are reported.
    /// - Returns: The first successful attempt's receipt, or the last attempt's error.
    public func upload(_ request: UploadRequest, reporter: UploadReporter) -> Promise<UploadReceipt> {
        let transport = self.transport
        let policy = self.policy
        return retry(
            attempts: policy.attempts, backoff: policy.backoff, jitterSource: policy.jitterSource, on: scheduler,
            { transport.upload(request, reporter: reporter) },
            while: { error, attempt in
                // The wait is decided here (not by `retry`) so that the event carries the exact delay.
                let delay: Duration
                switch policy.decision(for: error) {
                case .stop: return .stop
                case .retryAfter(let wait): delay = wait
                case .retry:
                    delay = policy.backoff.delay(beforeRetry: attempt, randomUnit: policy.jitterSource.nextUnit())
                }
                reporter.retryScheduled(attempt: attempt, delay: delay, reason: error)
                return .retryAfter(delay)
            })
    }
}
