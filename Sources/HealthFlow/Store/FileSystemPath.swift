import Foundation

/// A file-system path kept as the bytes the system calls receive: never decoded, never re-encoded.
///
/// A POSIX path is any run of bytes without NUL; nothing makes it UTF-8. A `URL` or a `String` cannot carry
/// such a path on Linux: swift-corelibs-Foundation replaces every byte that is not valid UTF-8 by U+FFFD
/// (EF BF BD), so a folder named with the byte 0xFF would be created, or looked for, as one named EF BF BD —
/// another folder. ``FileHealthStore`` and HealthSync's files go through this type: the bytes given are the
/// bytes `open`, `mkdir` and `rename` get, and names are joined on to them byte for byte.
///
/// - ``init(bytes:)`` and ``init(platformString:)`` take bytes as they are: from `CommandLine.unsafeArgv`,
///   `getenv` or `readdir`. This is the only way to name a path that is not UTF-8.
/// - ``init(_:)-(String)`` takes a string's UTF-8.
/// - ``init(_:)-(URL)`` takes a file URL's file-system representation, which on Linux already has U+FFFD in
///   place of any byte that was not UTF-8 when the URL was made.
///
/// ``description`` decodes the bytes for display (an invalid sequence shows as U+FFFD): use it in messages,
/// never to find the file again.
///
/// ```swift
/// let path = try FileSystemPath(bytes: Array("/tmp/caf".utf8) + [0xE9])  // "café" in Latin-1
/// #expect(!path.isValidUTF8)
/// #expect(path.url == nil)  // a URL would name another file
/// #expect(path.description == "/tmp/caf\u{FFFD}")  // for display only
/// #expect(path.appending("data").bytes == Array("/tmp/caf".utf8) + [0xE9] + Array("/data".utf8))
/// ```
public struct FileSystemPath: Hashable, Sendable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL (and never containing one).
    public var bytes: [UInt8] { terminated.dropLast().map { UInt8(truncatingIfNeeded: $0) } }

    /// The bytes and a NUL: ready for a system call, so ``withCString(_:)`` neither allocates nor frees (which
    /// could change `errno` before the caller reads it).
    private let terminated: [CChar]

    /// Bytes known to hold no NUL (from a C string, or joined from such paths and ASCII names); not checked.
    package init(unchecked bytes: [UInt8]) {
        terminated = bytes.map { CChar(truncatingIfNeeded: $0) } + [0]
    }

    /// The path `string` spells, as its UTF-8 bytes. A C call handed the string would stop at a NUL, and so
    /// does this: the bytes before the first NUL are the path.
    ///
    /// - Parameter string: The path.
    public init(_ string: String) {
        self.init(unchecked: Array(string.utf8.prefix { $0 != 0 }))
    }

    /// The path of a file URL: its file-system representation, as a system call would be given it.
    ///
    /// - Parameter url: A file URL. A URL cannot hold bytes that are not UTF-8 (Foundation has already replaced
    ///   them by U+FFFD), so a path that is not UTF-8 must come through ``init(bytes:)`` instead.
    public init(_ url: URL) {
        let bytes = url.withUnsafeFileSystemRepresentation { pointer in
            pointer.map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) } ?? []
        }
        self.init(unchecked: bytes.map { UInt8(bitPattern: $0) })
    }

    /// The path made of `bytes`, exactly.
    ///
    /// - Parameter bytes: The path, without a terminating NUL.
    /// - Throws: ``FileSystemPathError/containsNUL(offset:)`` when a byte is 0: no system call can be given
    ///   such a path.
    public init(bytes: some Sequence<UInt8>) throws(FileSystemPathError) {
        let bytes = Array(bytes)
        if let offset = bytes.firstIndex(of: 0) { throw .containsNUL(offset: offset) }
        self.init(unchecked: bytes)
    }

    /// The path a NUL-terminated C string holds, byte for byte: an `argv` entry, a `getenv` value, a
    /// `readdir` name.
    ///
    /// - Parameter platformString: A NUL-terminated string; only the bytes before its NUL are read.
    public init(platformString: UnsafePointer<CChar>) {
        let bytes = UnsafeBufferPointer(start: platformString, count: strlen(platformString))
        self.init(unchecked: bytes.map { UInt8(truncatingIfNeeded: $0) })
    }

    /// Whether the path starts at the root (`/`).
    public var isAbsolute: Bool { terminated.first == CChar(truncatingIfNeeded: Self.slash) }

    /// Whether the bytes are valid UTF-8, so a `String` or a `URL` can hold the path unchanged.
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// A file URL for the path, or `nil` when its bytes are not UTF-8 (a URL would rewrite them, and name
    /// another file).
    public var url: URL? {
        guard let string = String(validating: bytes, as: UTF8.self) else { return nil }
        return URL(fileURLWithPath: string)
    }

    /// ``url``, or for a path that is not UTF-8 the URL of its display form (U+FFFD in place of the other bytes):
    /// for the URL-typed properties kept beside a path, which must hold some URL. Never used to reach a file.
    package var urlOrDisplayForm: URL { url ?? URL(fileURLWithPath: description) }

    /// The path for people to read: the bytes decoded as UTF-8, an invalid sequence shown as U+FFFD. Display
    /// only: two different paths may read the same.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The path with `component` joined on by one slash (none is added after a trailing slash, or to an empty
    /// path). `component` may itself hold several components (`"sync/tmp"`).
    ///
    /// - Parameter component: The name to add, as its UTF-8 bytes (up to a NUL, as in ``init(_:)-(String)``).
    /// - Returns: The longer path; its first bytes are this path's, unchanged.
    public func appending(_ component: String) -> FileSystemPath {
        appending(FileSystemPath(component))
    }

    /// The path with `component`'s bytes joined on by one slash, as ``appending(_:)-(String)`` does: the way to
    /// add a name that is not UTF-8 (one read with `readdir`, say).
    ///
    /// - Parameter component: The name (or relative path) to add.
    /// - Returns: The longer path.
    public func appending(_ component: FileSystemPath) -> FileSystemPath {
        if bytes.isEmpty { return component }
        if bytes.last == Self.slash { return FileSystemPath(unchecked: bytes + component.bytes) }
        return FileSystemPath(unchecked: bytes + [Self.slash] + component.bytes)
    }

    /// The last component, trailing slashes ignored: `b` for `/a/b/`; empty for `/` and for an empty path.
    public var lastComponent: FileSystemPath {
        let trimmed = withoutTrailingSlashes
        let start = trimmed.lastIndex(of: Self.slash).map { $0 + 1 } ?? trimmed.startIndex
        return FileSystemPath(unchecked: Array(trimmed[start...]))
    }

    /// The folder holding the last component, as `dirname` gives it: `/a` for `/a/b/`, `/` for `/a` and `/`,
    /// `.` for a name without a slash.
    public var parent: FileSystemPath {
        let trimmed = withoutTrailingSlashes
        guard let last = trimmed.lastIndex(of: Self.slash) else {
            return FileSystemPath(unchecked: isAbsolute ? [Self.slash] : [Self.dot])
        }
        let folder = trimmed[..<last]
        guard let end = folder.lastIndex(where: { $0 != Self.slash }) else {
            return FileSystemPath(unchecked: [Self.slash])
        }
        return FileSystemPath(unchecked: Array(folder[...end]))
    }

    /// The path with `.` components, repeated and trailing slashes removed and each `..` taken back with the
    /// component before it (at the root it stays at the root), from the bytes alone: the disk is not read, so
    /// symbolic links are not followed — `URL.standardizedFileURL`'s rule. A relative path stays relative (a
    /// leading `..` it cannot take back is kept).
    ///
    /// - Returns: The normalized path (`/` for the root, `.` for an empty relative result).
    public func lexicallyNormalized() -> FileSystemPath {
        var kept: [ArraySlice<UInt8>] = []
        for component in bytes.split(separator: Self.slash, omittingEmptySubsequences: true) {
            if component.elementsEqual([Self.dot]) { continue }
            if component.elementsEqual([Self.dot, Self.dot]) {
                if let last = kept.last, !last.elementsEqual([Self.dot, Self.dot]) {
                    kept.removeLast()
                    continue
                }
                if isAbsolute { continue }
            }
            kept.append(component)
        }
        let joined = Array(kept.joined(separator: [Self.slash]))
        if isAbsolute { return FileSystemPath(unchecked: [Self.slash] + joined) }
        return FileSystemPath(unchecked: joined.isEmpty ? [Self.dot] : joined)
    }

    /// Calls `body` with the path as a NUL-terminated C string, valid only during the call: what a system
    /// call takes.
    ///
    /// - Parameter body: Receives the C string.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    public func withCString<Result, Failure: Error>(
        _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(terminated)
    }

    private var withoutTrailingSlashes: ArraySlice<UInt8> {
        guard let end = bytes.lastIndex(where: { $0 != Self.slash }) else { return [] }
        return bytes[...end]
    }

    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")
}

/// Why bytes do not make a ``FileSystemPath``.
public enum FileSystemPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The byte at `offset` is 0: a C string ends there, so no system call could be given the whole path.
    case containsNUL(offset: Int)

    /// A readable message naming the offending byte.
    public var description: String {
        switch self {
        case .containsNUL(let offset): "the path has a NUL byte at offset \(offset)"
        }
    }
}
