import FlowKit

/// Wraps any ``UploadTransport`` with retries: exponential back-off with jitter on a `FlowScheduler`,
/// honouring `Retry-After`, as decided by an ``UploadRetryPolicy``.
///
/// Each attempt calls the transport again with the same request, so the idempotency key is the same and the
/// body is read afresh (a new stream per attempt). It is itself an ``UploadTransport``. Cancelling the promise
/// cancels the attempt under way (and its URL task) or the wait before the next one.
///
/// ```swift
/// let uploader = Uploader(transport: HTTPTransport(url: serverURL), policy: UploadRetryPolicy(attempts: 6))
/// let receipt = try await uploader.upload(request)
/// ```
public struct Uploader: UploadTransport {
    /// The transport each attempt goes through.
    ///
    /// ```swift
    /// uploader.transport is HTTPTransport   // true
    /// ```
    public let transport: any UploadTransport
    /// When and how to retry.
    ///
    /// ```swift
    /// uploader.policy.attempts   // 5
    /// ```
    public let policy: UploadRetryPolicy
    private let scheduler: (any FlowScheduler)?

    /// Creates an uploader.
    ///
    /// ```swift
    /// let uploader = Uploader(transport: transport, policy: UploadRetryPolicy(), scheduler: DispatchScheduler())
    /// ```
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

    /// Uploads `request`, retrying as the policy says.
    ///
    /// ```swift
    /// uploader.upload(request).done { receipt in commitAnchors() }
    /// ```
    /// - Parameter request: The upload.
    /// - Returns: The first successful attempt's receipt, or the last attempt's error.
    public func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        upload(request, reporter: .unobserved())
    }

    /// Uploads `request`, retrying as the policy says, and reports every attempt (through the transport) and
    /// every retry with its wait and reason to `reporter`.
    ///
    /// ```swift
    /// let upload = uploader.observedUpload(request)   // calls this with the handle's reporter
    /// ```
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
