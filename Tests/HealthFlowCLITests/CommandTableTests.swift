import Testing

@testable import healthflow

/// The command table seen from outside, on the built binary: every refused command line is one line on standard
/// error and exit status 2, with nothing on standard output; every help comes from the table.
@Suite struct CommandTableTests {
    /// One command line of each way to be refused, for each command that has it, and the words its line holds.
    @Test(arguments: [
        (["frobnicate"], "healthflow: unknown command 'frobnicate'; see 'healthflow --help'"),
        (["--version"], "healthflow: unknown option '--version'"),
        (["demo", "--fast"], "healthflow demo: unknown option '--fast'; see 'healthflow demo --help'"),
        (["tour", "--fast"], "healthflow tour: unknown option '--fast'"),
        (["sync", "--to", "/tmp/x", "--fast"], "healthflow sync: unknown option '--fast'"),
        (["example", "write-height", "-q"], "healthflow example: unknown option '-q'"),
        (["help", "--all"], "healthflow help: unknown option '--all'"),
        (["demo", "--data"], "healthflow demo: --data needs a value (DIR)"),
        (["demo", "--data", "--in-memory"], "--data needs a value (DIR)"),
        (["sync", "--in-memory", "--to"], "--to needs a value (URL|DIR)"),
        (["example", "observe-and-upload", "--style"], "--style needs a value (STYLE)"),
        (["demo", "--data", "a", "--data", "b"], "--data is given more than once"),
        (["demo", "--in-memory", "--in-memory"], "--in-memory is given more than once"),
        (["sync", "--to", "/tmp/a", "--to", "/tmp/b"], "--to is given more than once"),
        (["example", "write-height", "--style", "async", "--style", "promise"], "--style is given more than once"),
        (["demo", "now"], "healthflow demo: unexpected argument 'now'"),
        (["tour", "now"], "unexpected argument 'now'"),
        (["example", "write-height", "twice"], "unexpected argument 'twice'"),
        (["help", "demo", "tour"], "unexpected argument 'tour'"),
        (["help", "frobnicate"], "healthflow help: unknown command 'frobnicate'; see 'healthflow --help'"),
        (["demo", "--in-memory", "--repair"], "--repair applies to a durable store"),
        (["demo", "--data", "/tmp/x", "--in-memory"], "--data and --in-memory exclude each other"),
        (["demo", "--data", ""], "--data needs a folder name"),
        (["sync", "--in-memory"], "healthflow sync: missing --to URL|DIR"),
        (["sync", "--to", "ftp://example.com", "--in-memory"], "--to takes an http(s) URL"),
        (["example"], "missing the example's name; see 'healthflow example --list'"),
        (["example", "nope"], "unknown example 'nope'; see 'healthflow example --list'"),
        (["example", "write-height", "--style", "fast"], "unknown style 'fast'"),
        (["example", "--list", "write-height"], "--list takes no name"),
        (["example", "write-height", "--to", "/tmp"], "--to is for observe-and-upload only"),
    ])
    func aRefusedCommandLineIsOneLineAndStatusTwo(arguments: [String], line: String) async throws {
        let run = try await HealthFlowCommandTests.healthflow(arguments: arguments)
        #expect(run.status == ExitCode.usage.rawValue, "\(arguments)")
        #expect(run.output.isEmpty, "\(arguments): \(run.output)")
        let lines = run.errors.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): \(run.errors)")
        #expect(run.errors.hasPrefix("healthflow") && run.errors.contains(line), "\(arguments): \(run.errors)")
        #expect(run.errors.contains("; see '"), "every refusal says where to look")
    }

    @Test func everyWayToAskForTheOverviewPrintsTheSame() async throws {
        let overview = CommandHelp.overview(of: HealthFlowCommand.commands) + "\n"
        for arguments in [["--help"], ["-h"], ["help"]] {
            let run = try await HealthFlowCommandTests.healthflow(arguments: arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.output == overview, "\(arguments)")
        }
        let bare = try await HealthFlowCommandTests.healthflow(arguments: [])
        #expect(bare.status == ExitCode.usage.rawValue)
        #expect(bare.output == overview)
    }

    /// `help COMMAND`, `COMMAND --help` and `COMMAND -h` print the command's page, which lists its options.
    @Test func everyCommandsHelpListsItsOptions() async throws {
        for command in HealthFlowCommand.commands {
            let page = CommandHelp.page(for: command) + "\n"
            for arguments in [["help", command.name], [command.name, "--help"], [command.name, "-h"]] {
                let run = try await HealthFlowCommandTests.healthflow(arguments: arguments)
                #expect(run.status == 0, "\(arguments)")
                #expect(run.output == page, "\(arguments)")
                #expect(run.errors.isEmpty, "\(arguments)")
            }
            for option in command.options {
                #expect(page.contains(option.synopsis), "\(command.name): \(option.name)")
            }
        }
    }
}
