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

    static let dataOption = CommandOption.value(
        "--data", "DIR", help: "keep the store in DIR instead of the per-user folder")
    static let inMemoryOption = CommandOption.flag(
        "--in-memory", help: "use a fresh in-memory store, generated for this run and discarded after it")
    static let repairOption = CommandOption.flag(
        "--repair",
        help: "open a damaged store keeping what is readable: every loss is printed as a warning and the damaged "
            + "files are kept in the store's damaged/ folder (without it, damage stops the command with exit "
            + "status 1 and changes nothing; the disk-backed store repairs damaged segments, not its log)")
    /// The options of every command that uses the demo's store.
    static let options = [dataOption, inMemoryOption, repairOption]

    /// The location `arguments` choose with ``options``.
    /// - Throws: ``ArgumentError`` for `--data` with `--in-memory`, `--repair` with `--in-memory`, or an empty
    ///   folder name.
    static func parse(_ arguments: ParsedArguments) throws(ArgumentError) -> DataLocation {
        let repair = arguments.contains(repairOption)
        switch (arguments.value(dataOption), arguments.contains(inMemoryOption)) {
        case (nil, false):
            return .directory(perUserDefault, repair: repair)
        case (nil, true):
            guard !repair else { throw ArgumentError("--repair applies to a durable store, not --in-memory") }
            return .inMemory
        case (let folder?, false):
            guard !folder.bytes.isEmpty else { throw ArgumentError("--data needs a folder name, not ''") }
            return .directory(RawCommandLine.absolute(folder.path), repair: repair)
        case (_?, true):
            throw ArgumentError("--data and --in-memory exclude each other")
        }
    }
}
