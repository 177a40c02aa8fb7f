import ActivityRingsExample
import ExampleSupport
import Foundation
import ImportAndSummarizeExample
import ObserveAndUploadExample
import OperationChainsExample
import ReadHeightsExample
import SafeWritesExample
import WriteHeightExample

/// `healthflow example NAME [--style …]`: runs a ported seed example on a fresh embedded store.
struct ExampleCommand: Command {
    static let examples: [any HealthExample.Type] = [
        WriteHeightExample.self, ReadHeightsExample.self, OperationChainsExample.self, SafeWritesExample.self,
        ObserveAndUploadExample.self,
        ActivityRingsExample.self, ImportAndSummarizeExample.self,
    ]

    let name = "example"
    let summary =
        "Run a ported seed example on the embedded store (default style: all, which also checks that the three "
        + "styles agree). 'healthflow example --list' lists them."
    let usage = [
        "NAME [--style callback|promise|async|all] [--explain]", "observe-and-upload [--style …] [--to URL|DIR]",
        "--list",
    ]
    let discussion = """
        Runs a seed program, ported to promises and async/await, on a fresh embedded store where every
        permission is granted. With --style all (the default) it runs the three styles against the same store
        and reports whether they agree.
        observe-and-upload uploads its batch to an outbox folder in its scratch directory by default; --to sends
        it to an HTTP(S) server (POST, retried with back-off) or an outbox directory of your choice, as
        'healthflow sync' does. Each style uploads its own batch.
        --explain prints the lesson's pattern first, and each style's key lines beside its run (from the
        example's LESSON.md, read from the package's source tree), so a live demo needs no slides.
        """
    static let list = CommandOption.flag("--list", help: "list the examples, each with its summary")
    static let style = CommandOption.value(
        "--style", "STYLE", help: "callback, promise, async, or all (the default: the three, checked to agree)")
    static let explain = CommandOption.flag(
        "--explain", help: "print the lesson's pattern, and each style's key lines beside its run")
    let options = [list, style, explain, SyncCommand.to]
    let operands = ["NAME"]
    let failsWhen = "the styles disagree or an upload failed"

    func run(_ arguments: ParsedArguments) async throws(ArgumentError) -> ExitCode {
        if arguments.contains(Self.list) {
            guard arguments.operands.isEmpty, !arguments.contains(Self.style), !arguments.contains(SyncCommand.to)
            else { throw ArgumentError("--list takes no name and no other option") }
            let width = Self.examples.map { $0.name.count }.max() ?? 0
            for example in Self.examples {
                print("\(example.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(example.summary)")
            }
            return .success
        }
        let seeList = "healthflow example --list"
        guard let name = arguments.operands.first?.description else {
            throw ArgumentError("missing the example's name", see: seeList)
        }
        guard let example = Self.examples.first(where: { $0.name == name }) else {
            throw ArgumentError("unknown example '\(name)'", see: seeList)
        }
        var styles = ExampleStyle.allCases
        if let style = arguments.value(Self.style)?.description, style != "all" {
            guard let one = ExampleStyle(rawValue: style) else {
                throw ArgumentError("unknown style '\(style)'; use callback, promise, async or all")
            }
            styles = [one]
        }
        let destination = try arguments.value(SyncCommand.to).map { to throws(ArgumentError) in
            try SyncCommand.Destination.parse(to).get()
        }
        if destination != nil && example != ObserveAndUploadExample.self {
            throw ArgumentError("--to is for observe-and-upload only; \(name) uploads nothing")
        }
        var lesson: Lesson?
        if arguments.contains(Self.explain) {
            do throws(Lesson.Unreadable) {
                lesson = try Lesson(of: example)
            } catch {
                FileHandle.standardError.write(Data("healthflow example: \(error)\n".utf8))
                return .failure
            }
        }
        return await Self.run(example, styles: styles, destination: destination, lesson: lesson)
    }

    /// Runs `example` in each of `styles` on one fresh embedded store and compares the outcomes; with a
    /// `lesson`, prints its pattern first and each style's key lines under its run.
    private static func run(
        _ example: any HealthExample.Type, styles: [ExampleStyle], destination: SyncCommand.Destination?,
        lesson: Lesson?
    ) async -> ExitCode {
        if let lesson {
            print("── \(example.name) · the pattern (\(example.lessonPath)) ──")
            print(CommandHelp.wrap(lesson.pattern, indent: 0).joined(separator: "\n") + "\n")
        }
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        do {
            try await example.prepare(context)
        } catch {
            print("error: preparing the store failed: \(error)")
            return .failure
        }
        var outcomes: [ExampleOutcome] = []
        for style in styles {
            let outcome: ExampleOutcome
            if let destination {
                do {
                    outcome = await ObserveAndUploadExample.run(style, in: context, to: try destination.transport())
                } catch {
                    FileHandle.standardError.write(
                        Data("healthflow example: cannot use --to \(destination): \(error)\n".utf8))
                    return .failure
                }
            } else {
                outcome = await example.run(style, in: context)
            }
            outcomes.append(outcome)
            print("── \(example.name) · \(style) ──")
            print(outcome)
            print(SourceGuide.code(of: example, style: style))
            if let keyLines = lesson?.styles[style] {
                print("  \(keyLines.caption)")
                print(
                    keyLines.code.split(separator: "\n", omittingEmptySubsequences: false).map { "  │ " + $0 }
                        .joined(separator: "\n") + "\n")
            }
        }
        var status = ExitCode.success
        if styles.count > 1 {
            let agree = outcomes.dropFirst().allSatisfy { $0 == outcomes[0] }
            print(agree ? "\nThe \(styles.count) styles agree." : "\nThe styles DISAGREE.")
            if !agree { status = .failure }
        }
        // A command that uploads fails when its upload failed, whatever the styles agree on.
        if example == ObserveAndUploadExample.self,
            outcomes.contains(where: { if case .failure = $0 { true } else { false } })
        {
            FileHandle.standardError.write(Data("healthflow: the upload failed\n".utf8))
            status = .failure
        }
        print(SourceGuide.next(after: example))
        return status
    }
}
