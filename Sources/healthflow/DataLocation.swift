import Foundation
import HealthFlow

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the command keeps its health store.
///
/// By default a durable store in a per-user folder, so a second run finds the first run's data:
/// `$HEALTHFLOW_DATA` if set, else `~/Library/Application Support/HealthFlow` on Apple platforms and
/// `$XDG_DATA_HOME/healthflow` (default `~/.local/share/healthflow`) elsewhere. `--data DIR` chooses another
/// folder; `--in-memory` keeps everything in memory for one run. `--repair` opens a damaged durable store
/// keeping what is readable (see ``StoreOpening``).
///
/// Folders are paths of bytes (``HealthFlow/FileSystemPath``), read from `argv` and `getenv` as they are: a
/// folder whose name is not UTF-8 is used where it is, never one whose name has U+FFFD in place of its bytes.
enum DataLocation: Equatable {
    case inMemory
    case directory(FileSystemPath, repair: Bool)

    /// The per-user default described above.
    static var perUserDefault: FileSystemPath {
        if let explicit = RawCommandLine.environmentPath("HEALTHFLOW_DATA") {
            return RawCommandLine.absolute(explicit)
        }
        #if canImport(Darwin)
            return home.appending("Library/Application Support/HealthFlow")
        #else
            let base = RawCommandLine.environmentPath("XDG_DATA_HOME").map(RawCommandLine.absolute)
            return (base ?? home.appending(".local/share")).appending("healthflow")
        #endif
    }

    /// `$HOME`, else the user's home folder in the password database, else the current directory.
    private static var home: FileSystemPath {
        if let home = RawCommandLine.environmentPath("HOME") { return RawCommandLine.absolute(home) }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            return FileSystemPath(platformString: directory)
        }
        return RawCommandLine.absolute(FileSystemPath("."))
    }

    /// Reads `--data DIR` / `--in-memory` and `--repair` from `options`; a message for anything else.
    static func parse(_ options: [CommandArgument]) -> Result<DataLocation, ArgumentError> {
        let repair = options.contains("--repair")
        let options = options.filter { $0 != "--repair" }
        switch options.count {
        case 0: return .success(.directory(perUserDefault, repair: repair))
        case 1 where options[0] == "--in-memory":
            if repair { return .failure(ArgumentError("--repair applies to a durable store, not --in-memory")) }
            return .success(.inMemory)
        case 2 where options[0] == "--data" && !options[1].bytes.isEmpty:
            return .success(.directory(RawCommandLine.absolute(options[1].path), repair: repair))
        default:
            return .failure(
                ArgumentError("unexpected arguments '\(options.map(\.description).joined(separator: " "))'"))
        }
    }
}

/// A bad command line: printed as one line, exit status 2.
struct ArgumentError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
