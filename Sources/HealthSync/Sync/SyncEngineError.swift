/// Why a sync run could not prepare a batch. Messages name files and settings, never a health value.
///
/// Store, transport and state-file failures reach the caller as their own errors (``UploadError``,
/// ``SyncStateError``, `HealthStoreError`); this type covers the engine's own work.
public enum SyncEngineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The batch size limit is not positive.
    case invalidBatchSize(Int)
    /// The private temp folder could not be created or is not a private (0700) folder of this user.
    case tempFolder(path: String, reason: String)
    /// The folder pending batch bodies are kept in (``SyncEngine/stateFolderPath``) could not be created.
    case stateFolder(path: String, reason: String)
    /// A temp body file could not be created or written: the operation, the path and `errno`.
    case tempFile(operation: String, path: String, code: Int32)
    /// The state records a pending batch but its body file is missing: the batch cannot be re-sent as it was.
    case pendingBatchMissing(path: String)
    /// The state records a pending batch but its body file is not the recorded body (wrong length or CRC-32,
    /// unreadable, or a name that is not a bare file name).
    case pendingBatchCorrupt(path: String, reason: String)
    /// The pending body file could not be written or removed: the operation, the path and `errno`.
    case pendingFile(operation: String, path: String, code: Int32)
    /// Another run (of this engine, another engine or another process) is syncing from the same state file and
    /// holds its run lock, `lock`; this run sent nothing and changed nothing.
    case alreadyRunning(lock: String)

    /// A readable message.
    public var description: String {
        switch self {
        case .invalidBatchSize(let size): "batch size must be at least 1 (got \(size))"
        case .tempFolder(let path, let reason): "temp folder \(path) unusable: \(reason)"
        case .stateFolder(let path, let reason): "state folder \(path) unusable: \(reason)"
        case .tempFile(let operation, let path, let code): "\(operation) failed for \(path) (errno \(code))"
        case .pendingBatchMissing(let path): "pending batch body \(path) is missing"
        case .pendingBatchCorrupt(let path, let reason): "pending batch body \(path) is corrupt: \(reason)"
        case .pendingFile(let operation, let path, let code): "\(operation) failed for \(path) (errno \(code))"
        case .alreadyRunning(let lock): "another sync run from the same state is under way (it holds \(lock))"
        }
    }
}
