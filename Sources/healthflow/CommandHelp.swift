/// The help texts, written from the table of commands: the overview (`healthflow --help`) and one page per
/// command (`healthflow help COMMAND`, `healthflow COMMAND --help`).
enum CommandHelp {
    /// Help texts wrap at this column.
    static let width = 110

    /// The list of commands: each with its first usage line and its summary.
    static func overview(of commands: [any Command]) -> String {
        var lines = ["USAGE: healthflow COMMAND [OPTIONS]", "", "COMMANDS:"]
        for command in commands {
            lines.append("  " + ([command.name] + command.usage.prefix(1)).joined(separator: " "))
            lines += wrap(command.summary, indent: 8)
        }
        lines += [""] + SourceGuide.learn
        lines += [
            "",
            "Run 'healthflow help COMMAND' or 'healthflow COMMAND --help' for a command's options.",
            "",
            "Exit status: 0 on success, 1 when the command fails, 2 for an unknown command or bad arguments.",
        ]
        return lines.joined(separator: "\n")
    }

    /// A command's page: its usage, what it does, every option (and `--help`), and its exit statuses.
    static func page(for command: any Command) -> String {
        let forms = command.usage.isEmpty ? [""] : command.usage
        var lines = forms.enumerated().map { index, form in
            (index == 0 ? "USAGE: " : "       ")
                + (["healthflow", command.name, form].filter { !$0.isEmpty })
                .joined(separator: " ")
        }
        lines += ["", command.discussion, "", "OPTIONS:"]
        let help = CommandOption.flag("-h, --help", help: "show this help")
        let options = command.options + [help]
        let column = (options.map(\.synopsis.count).max() ?? 0) + 4
        for option in options {
            let text = wrap(option.help, indent: column)
            let synopsis = "  " + option.synopsis
            lines.append(synopsis.padding(toLength: column, withPad: " ", startingAt: 0) + text[0].dropFirst(column))
            lines += text.dropFirst()
        }
        let failure = command.failsWhen.isEmpty ? "" : "1 when \(command.failsWhen), "
        lines += ["", "Exit status: 0 on success, \(failure)2 for bad arguments."]
        return lines.joined(separator: "\n")
    }

    /// `text` in lines of at most ``width`` columns (a longer word stands alone), each indented by `indent`.
    static func wrap(_ text: String, indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = margin
        for word in text.split(separator: " ") {
            if line.count > indent && line.count + 1 + word.count > width {
                lines.append(line)
                line = margin
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines
    }
}
