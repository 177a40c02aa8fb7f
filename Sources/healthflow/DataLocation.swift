import Foundation

/// Where the command keeps its health store.
///
/// By default a durable store in a per-user folder, so a second run finds the first run's data:
/// `$HEALTHFLOW_DATA` if set, else `~/Library/Application Support/HealthFlow` on Apple platforms and
/// `$XDG_DATA_HOME/healthflow` (default `~/.local/share/healthflow`) elsewhere. `--data DIR` chooses another
/// folder; `--in-memory` keeps everything in memory for one run. `--repair` opens a damaged durable store
/// keeping what is readable (see ``StoreOpening``).
enum DataLocation: Equatable {
    case inMemory
    case directory(URL, repair: Bool)

    /// The per-user default described above.
    static var perUserDefault: URL {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["HEALTHFLOW_DATA"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        let home = FileManager.default.homeDirectoryForCurrentUser
        #if canImport(Darwin)
            return home.appendingPathComponent("Library/Application Support/HealthFlow", isDirectory: true)
        #else
            let base =
                environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
                ?? home.appendingPathComponent(".local/share", isDirectory: true)
            return base.appendingPathComponent("healthflow", isDirectory: true)
        #endif
    }

    /// Reads `--data DIR` / `--in-memory` and `--repair` from `options`; a message for anything else.
    static func parse(_ options: [String]) -> Result<DataLocation, ArgumentError> {
        let repair = options.contains("--repair")
        let options = options.filter { $0 != "--repair" }
        switch options.count {
        case 0: return .success(.directory(perUserDefault, repair: repair))
        case 1 where options[0] == "--in-memory":
            if repair { return .failure(ArgumentError("--repair applies to a durable store, not --in-memory")) }
            return .success(.inMemory)
        case 2 where options[0] == "--data" && !options[1].isEmpty:
            return .success(.directory(URL(fileURLWithPath: options[1], isDirectory: true), repair: repair))
        default: return .failure(ArgumentError("unexpected arguments '\(options.joined(separator: " "))'"))
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
