#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an upload failed. Messages name the batch or file, never a health value.
public enum UploadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The body could not be opened or read.
    case bodyUnavailable(String)
    /// The body's length differs from the request's `contentLength`; nothing was stored.
    case lengthMismatch(expected: Int64, actual: Int64)
    /// The file extension is empty or holds a `/`, a NUL or a leading dot.
    case invalidFileExtension(String)
    /// A system call failed: the operation, the path and `errno`.
    case io(operation: String, path: String, code: Int32)

    /// A readable message.
    public var description: String {
        switch self {
        case .bodyUnavailable(let reason): "upload body unavailable: \(reason)"
        case .lengthMismatch(let expected, let actual): "body is \(actual) bytes, the request announced \(expected)"
        case .invalidFileExtension(let ext): "invalid outbox file extension \"\(ext)\""
        case .io(let operation, let path, let code):
            "\(operation) failed for \(path): \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
