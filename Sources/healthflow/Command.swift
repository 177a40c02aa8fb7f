/// One `healthflow` command, as the table of commands (``HealthFlowCommand/commands``) knows it.
///
/// The table is the one source of the help texts, of the option parsing and of the exit statuses: a command
/// declares its options and operands and is given them parsed (``CommandLineParser``); it never reads `argv`.
/// `--help` and `-h` belong to every command and are not declared.
protocol Command: Sendable {
    /// The word that selects the command: `healthflow NAME`.
    var name: String { get }
    /// One line for the list of commands.
    var summary: String { get }
    /// The synopsis, one form a line, each without the leading `healthflow NAME`.
    var usage: [String] { get }
    /// What `healthflow NAME --help` says between the usage and the options (lines already wrapped).
    var discussion: String { get }
    /// The options it accepts, in the order its help lists them.
    var options: [CommandOption] { get }
    /// The operands it accepts, by their placeholders (`NAME`); more are refused. Whether one is required is
    /// the command's own rule.
    var operands: [String] { get }
    /// When the command exits with ``ExitCode/failure``, for its help (`""`: never).
    var failsWhen: String { get }

    /// Runs the command on its parsed arguments and returns how it ended, having said why when it failed.
    /// - Throws: ``ArgumentError`` for arguments the parser could not judge (a value of the wrong form, options
    ///   that exclude each other): printed as one line, exit status 2, before any work is done.
    func run(_ arguments: ParsedArguments) async throws(ArgumentError) -> ExitCode
}

extension Command {
    var operands: [String] { [] }
}

/// How `healthflow` exits.
enum ExitCode: Int32 {
    /// The command did its work.
    case success = 0
    /// The command ran and failed (it said why).
    case failure = 1
    /// The command line was refused: an unknown command or option, a missing or repeated value, a bad value.
    case usage = 2
}
