/// Why the durable sync state could not be read or written. A corrupt state file is reported, never reset.
public enum SyncStateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The state file exists but is not a valid state document (truncated, edited, another format).
    case corrupt(path: String, reason: String)
    /// The state file was written by a newer version of this library.
    case unsupportedVersion(path: String, version: Int)
    /// A system call failed: the operation (`open`, `write`, `fsync`, `rename`, `read`…), the path and `errno`.
    case io(operation: String, path: String, code: Int32)

    /// A readable message naming the file and the problem.
    public var description: String {
        switch self {
        case .corrupt(let path, let reason): "sync state file \(path) is corrupt: \(reason)"
        case .unsupportedVersion(let path, let version):
            "sync state file \(path) has format version \(version), newer than this library supports"
        case .io(let operation, let path, let code): "\(operation) failed for \(path) (errno \(code))"
        }
    }
}
