/// An option of a command: a flag (`--in-memory`), or an option that takes the next argument as its value
/// (`--data DIR`). Every option may be given once.
struct CommandOption: Sendable, Equatable {
    /// `--name`.
    let name: String
    /// The value's placeholder in help texts (`DIR`), or `nil` for a flag.
    let value: String?
    /// One sentence for the command's help (wrapped when printed).
    let help: String

    static func flag(_ name: String, help: String) -> CommandOption {
        CommandOption(name: name, value: nil, help: help)
    }

    static func value(_ name: String, _ placeholder: String, help: String) -> CommandOption {
        CommandOption(name: name, value: placeholder, help: help)
    }

    /// `--data DIR`, or `--in-memory`.
    var synopsis: String { value.map { "\(name) \($0)" } ?? name }
}
