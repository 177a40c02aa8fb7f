import CZlib

/// What can go wrong while gzip-compressing with ``GzipCompressor`` or ``Foundation/Data/gzipped(level:)``.
public enum GzipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The compression level is outside zlib's range `0...9`.
    case invalidLevel(Int)

    /// `compress` or `finish` was called after ``GzipCompressor/finish()`` had already ended the stream.
    case alreadyFinished

    /// A zlib call returned an error code.
    ///
    /// - Parameters:
    ///   - function: the zlib function that failed, such as `deflateInit2_` or `deflate`.
    ///   - code: zlib's return code, named.
    ///   - message: zlib's `msg` for the stream, when it set one.
    case zlib(function: String, code: ZlibCode, message: String?)

    /// A zlib return code, named as in `zlib.h`.
    public enum ZlibCode: Equatable, Sendable, CustomStringConvertible {
        /// `Z_ERRNO` (-1): a file-system error (not used by in-memory deflate).
        case errno
        /// `Z_STREAM_ERROR` (-2): the stream state or a parameter was inconsistent.
        case streamError
        /// `Z_DATA_ERROR` (-3): the input data was corrupted.
        case dataError
        /// `Z_MEM_ERROR` (-4): zlib could not allocate memory.
        case memoryError
        /// `Z_BUF_ERROR` (-5): no progress was possible.
        case bufferError
        /// `Z_VERSION_ERROR` (-6): the zlib library is incompatible with the header compiled against.
        case versionError
        /// Any other code.
        case other(Int32)

        /// Names a raw zlib return code.
        public init(rawValue: Int32) {
            switch rawValue {
            case Z_ERRNO: self = .errno
            case Z_STREAM_ERROR: self = .streamError
            case Z_DATA_ERROR: self = .dataError
            case Z_MEM_ERROR: self = .memoryError
            case Z_BUF_ERROR: self = .bufferError
            case Z_VERSION_ERROR: self = .versionError
            default: self = .other(rawValue)
            }
        }

        /// The raw value zlib returned.
        public var rawValue: Int32 {
            switch self {
            case .errno: Z_ERRNO
            case .streamError: Z_STREAM_ERROR
            case .dataError: Z_DATA_ERROR
            case .memoryError: Z_MEM_ERROR
            case .bufferError: Z_BUF_ERROR
            case .versionError: Z_VERSION_ERROR
            case .other(let code): code
            }
        }

        /// The code's `zlib.h` name and value, such as `Z_MEM_ERROR (-4)`.
        public var description: String {
            let name =
                switch self {
                case .errno: "Z_ERRNO"
                case .streamError: "Z_STREAM_ERROR"
                case .dataError: "Z_DATA_ERROR"
                case .memoryError: "Z_MEM_ERROR"
                case .bufferError: "Z_BUF_ERROR"
                case .versionError: "Z_VERSION_ERROR"
                case .other: "zlib code"
                }
            return "\(name) (\(rawValue))"
        }
    }

    /// A readable explanation that names the offending value.
    public var description: String {
        switch self {
        case .invalidLevel(let level):
            "gzip level \(level) is out of range: zlib accepts 0 (store) to 9 (best)"
        case .alreadyFinished:
            "the gzip stream was already finished; make a new GzipCompressor"
        case .zlib(let function, let code, let message):
            "zlib \(function) failed with \(code)" + (message.map { ": \($0)" } ?? "")
        }
    }
}
