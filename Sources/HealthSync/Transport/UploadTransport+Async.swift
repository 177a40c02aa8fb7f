import FlowKit

extension UploadTransport {
    /// The async twin of ``UploadTransport/upload(_:)``: the same upload, awaited.
    ///
    /// - Parameter request: The batch ID, content type, length and body.
    /// - Returns: The receipt once the receiver holds the batch.
    /// - Throws: The transport's error.
    public func upload(_ request: UploadRequest) async throws -> UploadReceipt {
        return try await firstly { upload(request) }.value
    }
}
