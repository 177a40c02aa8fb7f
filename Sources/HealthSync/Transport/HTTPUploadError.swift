import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why one HTTP upload attempt failed: the server's status, or the connection's `URLError` code.
///
/// A separate enum rather than new ``UploadError`` cases, so transport-independent code that switches over
/// ``UploadError`` is unaffected. Messages never contain the request body.
public enum HTTPUploadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The server answered with a non-2xx status; `retryAfter` is its `Retry-After` (delta-seconds form only),
    /// `message` one short line of its response body (markup and control characters removed, at most 120
    /// characters), when it sent text.
    case http(status: Int, retryAfter: Duration?, message: String?)
    /// The request failed below HTTP: `code` is the `URLError` code (−1 connection closed mid-body or
    /// mid-response, −1005 connection lost/reset, −1001 timed out, −1004 cannot connect, −1011 closed without a
    /// reply, −1002 a reply that is not HTTP, …). ``Uploader`` lists which are retried.
    case connection(code: Int)
    /// The reply was not an HTTP response.
    case invalidResponse
    /// The server answered with a redirect the transport does not follow for an upload (see ``RedirectPolicy``):
    /// its status and `Location` (made printable and cut short as ``ServerText/printable(_:)`` does). Nothing
    /// was delivered; never retried.
    case redirectRefused(status: Int, location: String?)
    /// The server answered with this 2xx status before the whole request body had gone out: it cannot have
    /// stored the batch, so nothing counts as delivered. Retried (with the same `Idempotency-Key`).
    case answeredBeforeBodySent(status: Int)
    /// One attempt's exchange took longer than the transport's whole-exchange deadline
    /// (``HTTPTransport/timeout``); retried.
    case timedOut(after: Duration)
    /// Nothing moved — no body byte sent, no response byte received — for the transport's
    /// ``HTTPTransport/stallLimit``; retried.
    case stalled(for: Duration)

    private static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        let tenths = (Double(whole) + Double(fraction) / 1e18) * 10
        return "\(tenths.rounded() / 10) s"
    }

    /// The server's `Retry-After`, if this is an HTTP status error that carried one.
    public var retryAfter: Duration? {
        if case .http(_, let retryAfter, _) = self { return retryAfter }
        return nil
    }

    /// A readable message.
    public var description: String {
        switch self {
        case .http(let status, let retryAfter, let message):
            "HTTP \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))"
                + (retryAfter.map { ", retry after \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
        case .connection(let code): "connection failed (URLError \(code))"
        case .invalidResponse: "the reply was not an HTTP response"
        case .timedOut(let deadline): "the server did not answer within \(Self.seconds(deadline))"
        case .stalled(let limit): "no progress for \(Self.seconds(limit))"
        case .redirectRefused(let status, let location):
            "the server redirected the upload (HTTP \(status) to \(location ?? "no Location")), which is not followed "
                + "(only 307/308 within the same origin are); nothing was delivered"
        case .answeredBeforeBodySent(let status):
            "the server answered \(status) before it had the whole body; nothing was delivered"
        }
    }
}
