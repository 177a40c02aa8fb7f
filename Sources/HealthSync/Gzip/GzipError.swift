import CZlib

/// What can go wrong while gzip-compressing with ``GzipCompressor`` or ``Foundation/Data/gzipped(level:)``.
///
/// ```swift
/// do {
///     _ = try GzipCompressor(level: 12)
/// } catch {
///     print(error)   // "gzip level 12 is out of range: zlib accepts 0 (store) to 9 (best)"
/// }
/// ```
public enum GzipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The compression level is outside zlib's range `0...9`.
    ///
    /// ```swift
    /// #expect(throws: GzipError.invalidLevel(-1)) { try GzipCompressor(level: -1) }
    /// ```
    case invalidLevel(Int)

    /// `compress` or `finish` was called after ``GzipCompressor/finish()`` had already ended the stream.
    ///
    /// ```swift
    /// let gzip = try GzipCompressor()
    /// _ = try gzip.finish()
    /// _ = try gzip.finish()   // throws GzipError.alreadyFinished
    /// ```
    case alreadyFinished

    /// A zlib call returned an error code.
    ///
    /// ```swift
    /// GzipError.zlib(function: "deflateInit2_", code: .memoryError, message: nil).description
    /// // "zlib deflateInit2_ failed with Z_MEM_ERROR (-4)"
    /// ```
    /// - Parameters:
    ///   - function: the zlib function that failed, such as `deflateInit2_` or `deflate`.
    ///   - code: zlib's return code, named.
    ///   - message: zlib's `msg` for the stream, when it set one.
    case zlib(function: String, code: ZlibCode, message: String?)

    /// A zlib return code, named as in `zlib.h`.
    ///
    /// ```swift
    /// GzipError.ZlibCode(rawValue: -2)   // .streamError, "Z_STREAM_ERROR (-2)"
    /// ```
    public enum ZlibCode: Equatable, Sendable, CustomStringConvertible {
        /// `Z_ERRNO` (-1): a file-system error (not used by in-memory deflate).
        ///
        /// ```swift
        /// GzipError.ZlibCode(rawValue: -1) == .errno   // true
        /// ```
        case errno
        /// `Z_STREAM_ERROR` (-2): the stream state or a parameter was inconsistent.
        ///
        /// ```swift
        /// GzipError.ZlibCode(rawValue: -2) == .streamError   // true
        /// ```
        case streamError
        /// `Z_DATA_ERROR` (-3): the input data was corrupted.
        ///
        /// ```swift
        /// GzipError.ZlibCode(rawValue: -3) == .dataError   // true
        /// ```
        case dataError
        /// `Z_MEM_ERROR` (-4): zlib could not allocate memory.
        ///
        /// ```swift
        /// GzipError.ZlibCode(rawValue: -4) == .memoryError   // true
        /// ```
        case memoryError
        /// `Z_BUF_ERROR` (-5): no progress was possible.
        ///
        /// ```swift
        /// GzipError.ZlibCode(rawValue: -5) == .bufferError   // true
        /// ```
        case bufferError
        /// `Z_VERSION_ERROR` (-6): the zlib library is incompatible with the header compiled against.
        ///
        /// ```swift
        /// GzipError.ZlibCode(rawValue: -6) == .versionError   // true
        /// ```
        case versionError
        /// Any other code.
        ///
        /// ```swift
        /// GzipError.ZlibCode(rawValue: 2) == .other(2)   // Z_NEED_DICT, never returned by deflate
        /// ```
        case other(Int32)

        /// Names a raw zlib return code.
        ///
        /// ```swift
        /// GzipError.ZlibCode(rawValue: Z_BUF_ERROR) == .bufferError   // true
        /// ```
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
        ///
        /// ```swift
        /// GzipError.ZlibCode.memoryError.rawValue   // -4
        /// ```
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
        ///
        /// ```swift
        /// "\(GzipError.ZlibCode.dataError)"   // "Z_DATA_ERROR (-3)"
        /// ```
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
    ///
    /// ```swift
    /// GzipError.alreadyFinished.description   // "the gzip stream was already finished; make a new GzipCompressor"
    /// ```
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
