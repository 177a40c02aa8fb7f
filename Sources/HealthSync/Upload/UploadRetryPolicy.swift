import FlowKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// When and how an ``Uploader`` retries: the attempt count, the back-off with jitter, and which failures are
/// worth another attempt.
///
/// Retried: connection failures (``HTTPUploadError/connection(code:)`` or a `URLError` with a code in
/// ``retryableURLErrorCodes``), an exchange past its deadline or stalled (``HTTPUploadError/timedOut(after:)``,
/// ``HTTPUploadError/stalled(for:)``), a 2xx that came before the whole body went out
/// (``HTTPUploadError/answeredBeforeBodySent(status:)``), and HTTP 408, 429 and 5xx — after the server's
/// `Retry-After` when it sent one (kept between ``minimumRetryAfter`` and ``maximumRetryAfter``), after the back-off
/// otherwise. Never retried: other statuses (4xx), body errors, cancellation, anything else.
public struct UploadRetryPolicy: Sendable {
    /// The most attempts, the first included.
    public var attempts: Int
    /// The waits between attempts (exponential with full jitter by default).
    public var backoff: Backoff
    /// The jitter's random numbers (seed it in tests).
    public var jitterSource: JitterSource
    /// The longest `Retry-After` honoured; longer ones are shortened to this.
    public var maximumRetryAfter: Duration
    /// The shortest wait after a `Retry-After`: a server's `Retry-After: 0` (or a past date) still waits this
    /// long, so a busy server is never hammered without pause.
    public var minimumRetryAfter: Duration

    /// The `URLError` codes treated as a lost or failed connection: −1 (closed mid-body or mid-response),
    /// −1001 (timed out), −1003 (host not found), −1004 (cannot connect), −1005 (connection lost or reset),
    /// −1009 (offline), −1011 (the server closed the connection without a reply: libcurl's "empty reply").
    public static let retryableURLErrorCodes: Set<Int> = [-1, -1001, -1003, -1004, -1005, -1009, -1011]

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - attempts: The most attempts (5).
    ///   - backoff: The back-off (exponential from 500 ms, × 2, at most 60 s, full jitter).
    ///   - jitterSource: The random numbers (the system's).
    ///   - maximumRetryAfter: The cap on `Retry-After` (300 s).
    ///   - minimumRetryAfter: The floor under `Retry-After` (500 ms; never above the cap).
    public init(
        attempts: Int = 5,
        backoff: Backoff = .exponential(initial: .milliseconds(500), maximum: .seconds(60)),
        jitterSource: JitterSource = .system,
        maximumRetryAfter: Duration = .seconds(300),
        minimumRetryAfter: Duration = .milliseconds(500)
    ) {
        self.attempts = attempts
        self.backoff = backoff
        self.jitterSource = jitterSource
        self.maximumRetryAfter = maximumRetryAfter
        self.minimumRetryAfter = min(max(minimumRetryAfter, .zero), maximumRetryAfter)
    }

    /// Whether an HTTP status is worth retrying: 408, 429 and 5xx.
    ///
    /// - Parameter status: The status code.
    /// - Returns: `true` to retry.
    public static func isRetryable(status: Int) -> Bool {
        status == 408 || status == 429 || (500..<600).contains(status)
    }

    /// What to do after a failed attempt.
    ///
    /// - Parameter error: The attempt's error.
    /// - Returns: ``RetryDecision/retry``, ``RetryDecision/retryAfter(_:)`` or ``RetryDecision/stop``.
    public func decision(for error: any Error) -> RetryDecision {
        switch error {
        case HTTPUploadError.http(let status, let retryAfter, _):
            guard Self.isRetryable(status: status) else { return .stop }
            guard let retryAfter else { return .retry }
            return .retryAfter(min(max(retryAfter, minimumRetryAfter), maximumRetryAfter))
        case HTTPUploadError.timedOut, HTTPUploadError.stalled, HTTPUploadError.answeredBeforeBodySent:
            return .retry
        case HTTPUploadError.connection(let code):
            return Self.retryableURLErrorCodes.contains(code) ? .retry : .stop
        case let urlError as URLError:
            return Self.retryableURLErrorCodes.contains(urlError.errorCode) ? .retry : .stop
        default:
            return .stop
        }
    }
}
