import ActivityRingsExample
import ExampleSupport
import Foundation
import ObserveAndUploadExample
import OperationChainsExample
import ReadHeightsExample
import SafeWritesExample
import WriteHeightExample

/// `healthflow example NAME [--style …]`: runs a ported seed example on a fresh embedded store.
enum ExampleCommand {
    static let examples: [any HealthExample.Type] = [
        WriteHeightExample.self, ReadHeightsExample.self, OperationChainsExample.self, SafeWritesExample.self,
        ObserveAndUploadExample.self,
        ActivityRingsExample.self,
    ]

    static let usage = """
        USAGE: healthflow example NAME [--style callback|promise|async|all]
               healthflow example observe-and-upload [--style …] [--to URL|DIR]
               healthflow example --list

        Runs a seed program, ported to promises and async/await, on a fresh embedded store where every
        permission is granted. With --style all (the default) it runs the three styles against the same store
        and reports whether they agree.
        observe-and-upload uploads its batch to an outbox folder in its scratch directory by default; --to sends
        it to an HTTP(S) server (POST, retried with back-off) or an outbox directory of your choice, as
        'healthflow sync' does. Each style uploads its own batch.
        """

    /// Runs the command; returns the exit status (0 ok, 1 the styles disagree, 2 bad arguments).
    static func run(_ arguments: [CommandArgument]) async -> Int32 {
        if arguments == ["--list"] {
            let width = examples.map { $0.name.count }.max() ?? 0
            for example in examples {
                print("\(example.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(example.summary)")
            }
            return 0
        }
        if arguments == ["--help"] || arguments == ["-h"] {
            print(usage)
            return 0
        }
        guard let name = arguments.first?.description else {
            return fail("missing the example's name; run 'healthflow example --list'")
        }
        guard let example = examples.first(where: { $0.name == name }) else {
            return fail("unknown example '\(name)'; run 'healthflow example --list'")
        }
        let options: Options
        switch Options.parse(Array(arguments.dropFirst())) {
        case .success(let parsed): options = parsed
        case .failure(let error): return fail(error.description)
        }
        if options.destination != nil && example != ObserveAndUploadExample.self {
            return fail("--to is for observe-and-upload only; \(name) uploads nothing")
        }
        let styles = options.style.map { [$0] } ?? ExampleStyle.allCases
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        do {
            try await example.prepare(context)
        } catch {
            print("error: preparing the store failed: \(error)")
            return 1
        }
        var outcomes: [ExampleOutcome] = []
        for style in styles {
            let outcome: ExampleOutcome
            if let destination = options.destination {
                do {
                    outcome = await ObserveAndUploadExample.run(style, in: context, to: try destination.transport())
                } catch {
                    return fail("cannot use --to \(destination): \(error)")
                }
            } else {
                outcome = await example.run(style, in: context)
            }
            outcomes.append(outcome)
            print("── \(example.name) · \(style) ──")
            print(outcome)
        }
        var status: Int32 = 0
        if styles.count > 1 {
            let agree = outcomes.dropFirst().allSatisfy { $0 == outcomes[0] }
            print(agree ? "\nThe \(styles.count) styles agree." : "\nThe styles DISAGREE.")
            if !agree { status = 1 }
        }
        // A command that uploads fails when its upload failed, whatever the styles agree on.
        if example == ObserveAndUploadExample.self,
            outcomes.contains(where: { if case .failure = $0 { true } else { false } })
        {
            FileHandle.standardError.write(Data("healthflow: the upload failed\n".utf8))
            status = 1
        }
        return status
    }

    /// `--style callback|promise|async|all` and `--to URL|DIR`, each at most once, in any order.
    struct Options {
        /// One style, or `nil` for all three.
        var style: ExampleStyle?
        /// Where observe-and-upload uploads, or `nil` for its scratch outbox.
        var destination: SyncCommand.Destination?

        static func parse(_ arguments: [CommandArgument]) -> Result<Options, ArgumentError> {
            var options = Options()
            var seen: Set<String> = []
            var index = 0
            while index < arguments.count {
                let flag = arguments[index].description
                guard flag == "--style" || flag == "--to", index + 1 < arguments.count, seen.insert(flag).inserted
                else {
                    return .failure(
                        ArgumentError(
                            "unexpected arguments '\(arguments.map(\.description).joined(separator: " "))'; "
                                + "see 'healthflow example --help'"
                        ))
                }
                let value = arguments[index + 1]
                index += 2
                if flag == "--style" {
                    if value == "all" { continue }
                    guard let style = ExampleStyle(rawValue: value.description) else {
                        return .failure(ArgumentError("unknown style '\(value)'; use callback, promise, async or all"))
                    }
                    options.style = style
                } else {
                    switch SyncCommand.Destination.parse(value) {
                    case .success(let destination): options.destination = destination
                    case .failure(let error): return .failure(error)
                    }
                }
            }
            return .success(options)
        }
    }

    private static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("healthflow: \(message)\n".utf8))
        return 2
    }
}
