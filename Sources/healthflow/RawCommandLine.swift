import Foundation
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One command-line argument, as the bytes the process was given.
///
/// `CommandLine.arguments` decodes each argument as UTF-8 and replaces what is not by U+FFFD, so `--data` with a
/// folder whose name is not UTF-8 would name another folder. The command reads `argv` itself
/// (``RawCommandLine/arguments``): flags are compared as text, paths are taken as bytes (``path``).
struct CommandArgument: Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The argument's bytes (never a NUL: a C string ends there).
    let bytes: [UInt8]

    /// The argument `argv` holds at `pointer`.
    init(platformString pointer: UnsafePointer<CChar>) {
        bytes = FileSystemPath(platformString: pointer).bytes
    }

    /// The argument of `bytes`, up to a NUL (as `argv` would hold it).
    init(bytes: [UInt8]) {
        self.bytes = Array(bytes.prefix { $0 != 0 })
    }

    /// An argument spelled in code (tests, the dispatch of a command): its UTF-8 up to a NUL, as `argv` would
    /// hold it.
    init(stringLiteral value: String) {
        bytes = FileSystemPath(value).bytes
    }

    /// The argument as text, for comparing with flags and for messages (U+FFFD where the bytes are not UTF-8).
    var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The argument as a path, byte for byte.
    var path: FileSystemPath { FileSystemPath(unchecked: bytes) }
}

/// The command line and the environment as bytes: what the command reads paths from.
enum RawCommandLine {
    /// The arguments after the program's name, from `CommandLine.unsafeArgv`.
    static var arguments: [CommandArgument] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { CommandArgument(platformString: $0) }
        }
    }

    /// The environment variable `name` as a path, byte for byte (`getenv`); `nil` when it is unset or empty.
    static func environmentPath(_ name: String) -> FileSystemPath? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return FileSystemPath(platformString: value)
    }

    /// `path` made absolute against the current directory and normalized as `URL.standardizedFileURL` does
    /// (``HealthFlow/FileSystemPath/lexicallyNormalized()``): the folder a relative argument names when the
    /// command starts, whatever directory the work later runs in. The bytes of every component stay as given.
    static func absolute(_ path: FileSystemPath) -> FileSystemPath {
        guard !path.isAbsolute, let current = getcwd(nil, 0) else { return path.lexicallyNormalized() }
        defer { free(current) }
        return FileSystemPath(platformString: current).appending(path).lexicallyNormalized()
    }
}
