import Foundation
import ProductSupport
import Testing

/// Runs the built `healthflow` binary as a subprocess, as a user would.
@Suite struct HealthFlowCommandTests {
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    /// The folder holding the built products (the test runner sits beside `healthflow`).
    static var productsDirectory: URL { BuiltProducts.directory }

    static func healthflow(_ arguments: String...) async throws -> Run {
        try await healthflow(arguments: arguments)
    }

    static func healthflow(arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        try await healthflow(
            executable: productsDirectory.appendingPathComponent("healthflow").path, arguments: arguments,
            environment: environment)
    }

    /// Runs `executable` (the binary, or a shell that execs it) with `arguments` to its end, on a thread of its
    /// own: a test waiting for a subprocess never holds one of the few threads the other tests run on.
    static func healthflow(
        executable: String, arguments: [String], environment: [String: String] = [:]
    ) async throws -> Run {
        try await onOwnThread { try runToEnd(executable: executable, arguments: arguments, environment: environment) }
    }

    /// Runs the process and collects both outputs (standard error read alongside, so neither pipe fills).
    private static func runToEnd(executable: String, arguments: [String], environment: [String: String]) throws -> Run {
        let finished = try ChildProcess.run(
            URL(fileURLWithPath: executable), arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        return Run(status: finished.termination.status, output: finished.outputText, errors: finished.errorsText)
    }

    @Test func demoRunsEveryWorkflowOnAGeneratedYearAndSucceeds() async throws {
        let run = try await Self.healthflow("demo", "--in-memory")
        #expect(run.status == 0)
        for step in [
            "generate a year", "authorize", "check status", "write", "fetch", "statistics", "activity rings",
            "operation graph", "Trace of \"yearly report\"",
        ] {
            #expect(run.output.contains(step), "missing step: \(step)")
        }
        #expect(run.output.contains("[callback]") && run.output.contains("[promise]") && run.output.contains("[async]"))
        #expect(run.output.contains("height: sharingAuthorized"))
        #expect(run.output.contains("saved 1.72 m"))
        #expect(run.output.contains("all as expected"))
        #expect(
            run.output.contains(
                "Each step: [the style it is written in] what it does, then → what it found (how long it took)."),
            "the demo says what the number after each step is")
        #expect(
            run.output.range(of: #"in all \(setup [0-9.]+ m?s, workflows [0-9.]+ m?s\)\."#, options: .regularExpression)
                != nil, "the summary counts the setup and says so")
        #expect(!run.output.contains("ERROR"))
        #expect(run.output.contains("code: Sources/healthflow/HealthDemo.swift"), "the demo says where its code lives")
        #expect(run.output.contains("Next: swift run healthflow example --list"), "the demo says where to go next")
    }

    @Test func demoKeepsItsDataInTheChosenFolderAndReopensIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await Self.healthflow("demo", "--data", folder.path)
        #expect(first.status == 0)
        #expect(first.output.contains("a new store") && first.output.contains("generate a year"))
        let second = try await Self.healthflow("demo", "--data", folder.path)
        #expect(second.status == 0)
        #expect(second.output.contains("reopened") && !second.output.contains("generate a year"))
        #expect(second.output.contains("all as expected"))
    }

    @Test func demoRejectsUnknownOptionsWithStatusTwo() async throws {
        let run = try await Self.healthflow("demo", "--data")
        #expect(run.status == 2)
        #expect(run.errors.split(separator: "\n").count == 1)
    }

    @Test func tourShowsTheFlowKitPatterns() async throws {
        let run = try await Self.healthflow("tour")
        #expect(run.status == 0)
        #expect(run.output.contains("All tour steps behaved as expected."))
        #expect(run.output.contains("code: Sources/healthflow/FlowKitTour.swift"), "the tour says where its code lives")
        #expect(run.output.contains("Next: swift run healthflow demo"), "the tour says where to go next")
    }

    @Test func helpDescribesEveryCommand() async throws {
        let run = try await Self.healthflow("--help")
        #expect(run.status == 0)
        for command in ["demo", "tour", "example", "help"] { #expect(run.output.contains(command)) }
        for pointer in ["Examples/README.md", "Examples/Exercises/", "HEALTHFLOW_EXERCISES=mine swift test"] {
            #expect(run.output.contains(pointer), "--help points learners to \(pointer)")
        }
    }

    @Test func everyCommandHasItsOwnHelp() async throws {
        for command in ["demo", "tour", "example"] {
            let run = try await Self.healthflow(command, "--help")
            #expect(run.status == 0, "\(command)")
            #expect(run.output.contains("USAGE: healthflow \(command)"), "\(command)")
        }
    }

    @Test func anUnknownCommandIsAOneLineErrorWithStatusTwo() async throws {
        let run = try await Self.healthflow("frobnicate")
        #expect(run.status == 2)
        #expect(run.errors.split(separator: "\n").count == 1)
        #expect(run.errors.contains("frobnicate"))
    }

    @Test func noCommandPrintsTheUsageWithStatusTwo() async throws {
        let run = try await Self.healthflow()
        #expect(run.status == 2)
        #expect(run.output.contains("USAGE"))
    }

    @Test func extraArgumentsToDemoAreRejected() async throws {
        #expect(try await Self.healthflow("demo", "--fast").status == 2)
        #expect(try await Self.healthflow("tour", "--fast").status == 2)
    }

    @Test func examplesAreListedAndRunInEveryStyle() async throws {
        let list = try await Self.healthflow("example", "--list")
        #expect(list.status == 0 && list.output.contains("write-height"))
        let run = try await Self.healthflow("example", "write-height")
        #expect(run.status == 0)
        #expect(run.output.contains("The 3 styles agree."))
        for style in ["Callback", "Promise", "Async"] {
            #expect(
                run.output.contains(
                    "code: Examples/WriteHeight/WriteHeight+\(style).swift · lesson: Examples/WriteHeight/LESSON.md"),
                "each style's run says where its code and lesson live")
        }
        #expect(
            run.output.contains(
                "Next: read Examples/WriteHeight/LESSON.md, then try its exercises: "
                    + "HEALTHFLOW_EXERCISES=mine swift test --filter ExerciseWriteHeight"))
    }

    @Test func explainPrintsThePatternAndEachStylesKeyLinesBesideItsRun() async throws {
        let run = try await Self.healthflow("example", "read-heights", "--style", "promise", "--explain")
        #expect(run.status == 0)
        #expect(run.output.contains("── read-heights · the pattern (Examples/ReadHeights/LESSON.md) ──"))
        #expect(run.output.contains("HealthKit's queries are objects"), "the lesson's pattern paragraph")
        #expect(run.output.contains("  │ context.store.availableType(.height)"), "the promise style's key lines")
        #expect(!run.output.contains("HealthSampleQuery(sampleType:"), "only the styles that ran")
    }

    @Test func everyListedExampleNameIsWholeAndAccepted() async throws {
        let list = try await Self.healthflow("example", "--list")
        let lines = list.output.split(separator: "\n")
        let names = lines.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.contains("observe-and-upload") && names.contains("operation-chains"))
        let summaryColumns = Set(
            zip(names, lines).map { name, line in name.count + line.dropFirst(name.count).prefix { $0 == " " }.count })
        #expect(summaryColumns.count == 1, "summaries not aligned:\n\(list.output)")
        for name in names {
            // A bad style is refused after the name was looked up: an unknown name would be refused first.
            let run = try await Self.healthflow("example", name, "--style", "none")
            #expect(run.status == 2 && !run.errors.contains("unknown example"), "\(name): \(run.errors)")
        }
    }

    @Test func badExampleArgumentsAreOneLineErrorsWithStatusTwo() async throws {
        let refused = [
            ["example", "nope"], ["example", "write-height", "--style", "fast"], ["example"],
            ["example", "write-height", "--to", "/tmp"],  // only observe-and-upload uploads
            ["example", "observe-and-upload", "--to", "ftp://example.com"],
            ["example", "observe-and-upload", "--to", "http://127.0.0.1:9/upload", "--to", "/tmp"],
            ["example", "observe-and-upload", "--style", "async", "--style", "promise"],
            ["example", "observe-and-upload", "--to"],
        ]
        for arguments in refused {
            let process = try await Self.healthflow(arguments: arguments)
            #expect(process.status == 2, "\(arguments)")
            #expect(process.errors.split(separator: "\n").count == 1, "\(arguments)")
        }
    }
}
