import Testing

@testable import healthflow

/// The parser every command uses, on a command made for the test: one flag, one option with a value, one operand.
@Suite struct CommandLineParserTests {
    struct Probe: Command {
        static let flag = CommandOption.flag("--flag", help: "a flag")
        static let value = CommandOption.value("--value", "X", help: "an option with a value")
        let name = "probe"
        let summary = "A command for the parser's tests."
        let usage = ["[--flag] [--value X] [NAME]"]
        let discussion = "Runs nothing."
        let options = [flag, value]
        let operands = ["NAME"]
        let failsWhen = ""

        func run(_ arguments: ParsedArguments) async throws(ArgumentError) -> ExitCode { .success }
    }

    static func parse(_ arguments: [CommandArgument]) throws(ArgumentError) -> CommandLineParser.Outcome {
        try CommandLineParser.parse(arguments, for: Probe())
    }

    @Test(
        arguments: [
            ([], nil, false, nil),
            (["--flag"], nil, true, nil),
            (["--value", "x"], "x", false, nil),
            (["name", "--value", "x", "--flag"], "x", true, "name"),
            (["--value", "-"], "-", false, nil),  // "-" is a value, not an option
            (["--value", "--other"], "--other", false, nil),  // not one of the command's options: a value
            (["-"], nil, false, "-"),
        ] as [([CommandArgument], String?, Bool, String?)])
    func acceptsWhatTheCommandDeclares(
        arguments: [CommandArgument], value: String?, flag: Bool, operand: String?
    ) throws {
        guard case .parsed(let parsed) = try Self.parse(arguments) else {
            Issue.record("\(arguments) asked for help")
            return
        }
        #expect(parsed.value(Probe.value)?.description == value)
        #expect(parsed.contains(Probe.flag) == flag)
        #expect(parsed.operands.first?.description == operand)
    }

    /// Every way a command line is refused, each with the one message the user sees.
    @Test(
        arguments: [
            (["--fast"], "unknown option '--fast'"),
            (["-x"], "unknown option '-x'"),
            (["--value"], "--value needs a value (X)"),
            (["--value", "--flag"], "--value needs a value (X)"),
            (["--value", "--help"], "--value needs a value (X)"),
            (["--value", "-h"], "--value needs a value (X)"),
            (["--value", "a", "--value", "b"], "--value is given more than once"),
            (["--flag", "--flag"], "--flag is given more than once"),
            (["one", "two"], "unexpected argument 'two'"),
            (["--flag", "--fast", "--help"], "unknown option '--fast'"),
        ] as [([CommandArgument], String)])
    func refusesWithOneMessage(arguments: [CommandArgument], message: String) {
        do {
            _ = try Self.parse(arguments)
            Issue.record("accepted \(arguments)")
        } catch {
            #expect(error.description == message)
            #expect(error.see == nil, "the command's own help is the place to look")
        }
    }

    @Test(arguments: [["--help"], ["-h"], ["--flag", "--help"], ["name", "-h", "--unknown"]] as [[CommandArgument]])
    func helpWinsFromWhereItStands(arguments: [CommandArgument]) throws {
        guard case .help = try Self.parse(arguments) else {
            Issue.record("\(arguments) did not ask for help")
            return
        }
    }

    @Test func aValueKeepsItsBytes() throws {
        let folder = CommandArgument(bytes: Array("data-".utf8) + [0xFF])
        guard case .parsed(let parsed) = try Self.parse(["--value", folder]) else {
            Issue.record("help")
            return
        }
        #expect(parsed.value(Probe.value)?.bytes == folder.bytes)
    }

    /// Each command's page names every option it declares (with its placeholder) and --help; the overview names
    /// every command with its usage.
    @Test func helpTextsComeFromTheTable() {
        let overview = CommandHelp.overview(of: HealthFlowCommand.commands)
        for command in HealthFlowCommand.commands {
            #expect(overview.contains("  " + ([command.name] + command.usage.prefix(1)).joined(separator: " ")))
            let page = CommandHelp.page(for: command)
            #expect(page.hasPrefix("USAGE: healthflow \(command.name)"), "\(command.name)")
            for option in command.options {
                #expect(page.contains("  \(option.synopsis)  "), "\(command.name): \(option.name)")
            }
            #expect(page.contains("  -h, --help  "))
            #expect(page.split(separator: "\n").allSatisfy { $0.count <= 120 }, "\(command.name)")
        }
    }

    @Test func commandNamesAndOptionNamesAreUnique() {
        let names = HealthFlowCommand.commands.map(\.name)
        #expect(Set(names).count == names.count)
        for command in HealthFlowCommand.commands {
            let options = command.options.map(\.name)
            #expect(Set(options).count == options.count, "\(command.name)")
            #expect(options.allSatisfy { $0.hasPrefix("--") && !CommandLineParser.helpFlags.contains($0) })
        }
    }
}
