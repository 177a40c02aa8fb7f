/// Which redirects an upload follows: by default a 307 or 308 to the same scheme, host and port, at most
/// three hops, each re-sending the whole body from its start (a fresh stream, the same `Idempotency-Key`).
///
/// Anything else — 301, 302 and 303 (clients turn them into body-less GETs), a redirect to another origin, a
/// redirect without a usable `Location`, or more hops than ``maximumHops`` — ends the upload with
/// ``HTTPUploadError/redirectRefused(status:location:)``: nothing counts as delivered, so no anchor moves. Only
/// the 2xx answer to a request that carried the whole body acknowledges a batch.
public struct RedirectPolicy: Sendable, Hashable {
    /// The most 307/308 hops one attempt follows.
    public var maximumHops: Int
    /// Whether a 307/308 to another host (or scheme or port) is followed too. Off by default: the body is health
    /// data, and a redirect is no reason to send it somewhere else.
    public var allowsOtherOrigins: Bool

    /// Creates a policy.
    /// - Parameters:
    ///   - maximumHops: The most 307/308 hops one attempt follows (3).
    ///   - allowsOtherOrigins: Whether a redirect may leave the URL's scheme, host and port (no).
    public init(maximumHops: Int = 3, allowsOtherOrigins: Bool = false) {
        self.maximumHops = max(0, maximumHops)
        self.allowsOtherOrigins = allowsOtherOrigins
    }

    /// Follows no redirect at all.
    public static let none = RedirectPolicy(maximumHops: 0)
}
