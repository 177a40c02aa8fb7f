/// A command's arguments, parsed against its table entry (``CommandLineParser``): the options given, each
/// once, and the operands in order. Values are the bytes given (``CommandArgument``), so a path keeps them.
struct ParsedArguments: Sendable {
    private(set) var values: [String: CommandArgument] = [:]
    private(set) var flags: Set<String> = []
    private(set) var operands: [CommandArgument] = []

    /// The value given to `option`, or `nil` when it was not given.
    func value(_ option: CommandOption) -> CommandArgument? {
        values[option.name]
    }

    /// Whether `option` (a flag or an option with a value) was given.
    func contains(_ option: CommandOption) -> Bool {
        flags.contains(option.name) || values[option.name] != nil
    }

    /// Records `option` (with `value` when it takes one); `false` when it was already given.
    mutating func record(_ option: CommandOption, value: CommandArgument?) -> Bool {
        guard !contains(option) else { return false }
        if let value { values[option.name] = value } else { flags.insert(option.name) }
        return true
    }

    mutating func append(operand: CommandArgument) {
        operands.append(operand)
    }
}
