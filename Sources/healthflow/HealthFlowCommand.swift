import Foundation

/// The `healthflow` command line: a table of commands (``Command``) and the one place that dispatches to them.
///
/// `healthflow COMMAND [OPTIONS]` finds COMMAND in ``commands``, parses the rest against its declared options
/// (``CommandLineParser``) and runs it. Everything about the command line comes from the table: the overview
/// (`healthflow`, `--help`, `-h`, `help`), each command's page (`help COMMAND`, `COMMAND --help`), and every
/// refusal — an unknown command or option, a missing or repeated value, a bad value — as one line on standard
/// error with exit status 2 (``ExitCode``). A command that runs and fails exits with 1.
///
/// The arguments are read from `argv` as bytes (``RawCommandLine``): `CommandLine.arguments` would turn bytes that
/// are not UTF-8 into U+FFFD, and a folder given with them into another folder. Words are compared as text;
/// values keep their bytes.
@main
struct HealthFlowCommand {
    /// Every command, in the order the overview lists them.
    static let commands: [any Command] = [
        DemoCommand(), TourCommand(), ExampleCommand(), SyncCommand(), ImportCommand(), HelpCommand(),
    ]

    static func main() async {
        // Each line out as it is printed, also into a pipe or a file: a run stopped from outside (a timeout, a
        // supervisor) keeps what it printed, and its lines keep their order with standard error's.
        if let stream = standardOutputStream() { setvbuf(stream, nil, _IOLBF, 0) }
        exit(await run(RawCommandLine.arguments).rawValue)
    }

    static func run(_ arguments: [CommandArgument]) async -> ExitCode {
        guard let first = arguments.first else {
            print(CommandHelp.overview(of: commands))
            return .usage
        }
        if CommandLineParser.helpFlags.contains(first.description) {
            print(CommandHelp.overview(of: commands))
            return .success
        }
        guard let command = command(named: first.description) else {
            let kind = first.description.hasPrefix("-") ? "option" : "command"
            return refuse(ArgumentError("unknown \(kind) '\(first)'", see: "healthflow --help"), by: nil)
        }
        do {
            switch try CommandLineParser.parse(Array(arguments.dropFirst()), for: command) {
            case .help:
                print(CommandHelp.page(for: command))
                return .success
            case .parsed(let parsed):
                return try await command.run(parsed)
            }
        } catch {
            return refuse(error, by: command)
        }
    }

    static func command(named name: String) -> (any Command)? {
        commands.first { $0.name == name }
    }

    /// Prints `error` as one line on standard error and returns ``ExitCode/usage``.
    private static func refuse(_ error: ArgumentError, by command: (any Command)?) -> ExitCode {
        let prefix = command.map { "healthflow \($0.name)" } ?? "healthflow"
        let see = error.see ?? "\(prefix) --help"
        FileHandle.standardError.write(Data("\(prefix): \(error); see '\(see)'\n".utf8))
        return .usage
    }
}

/// C's standard output stream, the one `print` writes through, looked up by its symbol's name: Swift 6 refuses a
/// reference to the C global `stdout` itself (shared mutable state), and this reads it once, before anything is
/// printed.
private func standardOutputStream() -> UnsafeMutablePointer<FILE>? {
    #if canImport(Darwin)
        let name = "__stdoutp"
    #else
        let name = "stdout"
    #endif
    // A null handle is RTLD_DEFAULT: the symbol as the program sees it.
    guard let address = dlsym(nil, name) else { return nil }
    return address.load(as: UnsafeMutablePointer<FILE>?.self)
}
