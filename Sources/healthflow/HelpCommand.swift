/// `healthflow help [COMMAND]`: the overview, or one command's page.
struct HelpCommand: Command {
    let name = "help"
    let summary = "Show this help, or a command's options: 'healthflow help COMMAND' (also --help, -h)."
    let usage = ["[COMMAND]"]
    let discussion = "Prints the list of commands, or with COMMAND that command's usage, what it does and its options."
    let options: [CommandOption] = []
    let operands = ["COMMAND"]
    let failsWhen = ""

    func run(_ arguments: ParsedArguments) async throws(ArgumentError) -> ExitCode {
        guard let name = arguments.operands.first?.description else {
            print(CommandHelp.overview(of: HealthFlowCommand.commands))
            return .success
        }
        guard let command = HealthFlowCommand.command(named: name) else {
            throw ArgumentError("unknown command '\(name)'", see: "healthflow --help")
        }
        print(CommandHelp.page(for: command))
        return .success
    }
}
