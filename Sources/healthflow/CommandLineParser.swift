/// Reads a command's arguments against its declaration in the table (``Command``), left to right.
///
/// An argument that starts with `-` (other than `-` itself) is an option: `--help` or `-h` asks for the help
/// (whatever follows), an option the command does not declare is refused, a flag is recorded, and an option
/// with a value takes the next argument — refused when there is none, or when it is `--help`, `-h` or one of the
/// command's options (so `--data --in-memory` is a missing value, not a folder). Every option may be given once.
/// Anything else is an operand, refused beyond the command's ``Command/operands``.
enum CommandLineParser {
    enum Outcome {
        case parsed(ParsedArguments)
        case help
    }

    static let helpFlags: Set<String> = ["--help", "-h"]

    /// - Throws: ``ArgumentError`` naming the first argument that does not fit.
    static func parse(_ arguments: [CommandArgument], for command: any Command) throws(ArgumentError) -> Outcome {
        var parsed = ParsedArguments()
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let word = argument.description
            index += 1
            guard word.hasPrefix("-"), word != "-" else {
                guard parsed.operands.count < command.operands.count else {
                    throw ArgumentError("unexpected argument '\(word)'")
                }
                parsed.append(operand: argument)
                continue
            }
            if helpFlags.contains(word) { return .help }
            guard let option = command.options.first(where: { $0.name == word }) else {
                throw ArgumentError("unknown option '\(word)'")
            }
            var value: CommandArgument?
            if let placeholder = option.value {
                guard index < arguments.endIndex, !isOption(arguments[index].description, of: command) else {
                    throw ArgumentError("\(option.name) needs a value (\(placeholder))")
                }
                value = arguments[index]
                index += 1
            }
            guard parsed.record(option, value: value) else {
                throw ArgumentError("\(option.name) is given more than once")
            }
        }
        return .parsed(parsed)
    }

    private static func isOption(_ word: String, of command: any Command) -> Bool {
        helpFlags.contains(word) || command.options.contains { $0.name == word }
    }
}
