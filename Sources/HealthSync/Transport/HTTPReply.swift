import Foundation

/// A server's final answer to one HTTP exchange, as either client reads it: the status, the header fields in the
/// order they came, and the body (the whole of it, or its first ``keptBodyBytes`` from the socket client).
///
/// Both of ``HTTPTransport``'s clients (URLSession, and the socket client on Linux) hand one of these to the same
/// rules: ``HTTPTransport/redirectTarget(status:location:from:hopsLeft:)`` for a 3xx and
/// ``HTTPTransport/receipt(for:url:reply:)`` for everything else.
struct HTTPReply: Sendable {
    /// The most body bytes the socket client keeps: a receipt needs at most the first 64 KiB (a JSON
    /// `"duplicate": true`) and an error message the first 8 KiB; the rest of a larger body is read and dropped.
    static let keptBodyBytes = 1 << 20

    /// The status code, 200…999 (interim 1xx answers are never a reply).
    var status: Int
    /// The header fields, names as the server spelled them.
    var headers: [(name: String, value: String)]
    /// The body, or its first ``keptBodyBytes``.
    var body: Data

    /// The value of the first field named `name`, compared case-insensitively (RFC 9110 §5.1).
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The reply as the outcome of an exchange, under the delivery rule both clients share: an upload counts as
    /// delivered only after a 2xx to the request that carried the whole body, so a 2xx that came while part of the
    /// request had not gone out yet (on its head, or on accept) is no delivery. Any other answer is the outcome
    /// whenever it came.
    /// - Parameter wholeRequestSent: Whether the whole request, body included, had gone out when this came.
    /// - Throws: ``HTTPUploadError/answeredBeforeBodySent(status:)`` for a 2xx before the whole request went out.
    func outcome(wholeRequestSent: Bool) throws(HTTPUploadError) -> HTTPReply {
        if !wholeRequestSent, (200..<300).contains(status) {
            throw HTTPUploadError.answeredBeforeBodySent(status: status)
        }
        return self
    }
}
