import FlowKit

/// A transport that sees its bytes go out and reports them itself: it implements
/// ``UploadTransport/upload(_:reporter:)``, and ``upload(_:)`` is that upload with nobody watching.
///
/// - Note: A conforming type must implement ``UploadTransport/upload(_:reporter:)``: ``UploadTransport``'s default
///   for it calls ``upload(_:)``, which here calls it back.
public protocol ReportingUploadTransport: UploadTransport {}

extension ReportingUploadTransport {
    /// Uploads `request` once, as ``UploadTransport/upload(_:reporter:)`` does with an unobserved reporter.
    ///
    /// - Parameter request: The upload.
    /// - Returns: The reporting upload's promise.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        upload(request, reporter: .unobserved())
    }
}
