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
        WriteHeightExample.self, ReadHeightsExample.self, OperationChainsExample.self, SafeWritesExample.self, ObserveAndUploadExample.self,
        ActivityRingsExample.self,
    ]

    static let usage = """
        USAGE: healthflow example NAME [--style callback|promise|async|all]
               healthflow example --list

        Runs a seed program, ported to promises and async/await, on a fresh embedded store where every
        permission is granted. With --style all (the default) it runs the three styles against the same store
        and reports whether they agree.
        """

    /// Runs the command; returns the exit status (0 ok, 1 the styles disagree, 2 bad arguments).
    static func run(_ arguments: [String]) async -> Int32 {
        if arguments == ["--list"] {
            for example in examples { print("\(example.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(example.summary)") }
            return 0
        }
        if arguments == ["--help"] || arguments == ["-h"] {
            print(usage)
            return 0
        }
        guard let name = arguments.first else {
            return fail("missing the example's name; run 'healthflow example --list'")
        }
        guard let example = examples.first(where: { $0.name == name }) else {
            return fail("unknown example '\(name)'; run 'healthflow example --list'")
        }
        let options = Array(arguments.dropFirst())
        let styles: [ExampleStyle]
        if options.isEmpty || options == ["--style", "all"] {
            styles = ExampleStyle.allCases
        } else if options.count == 2, options[0] == "--style" {
            guard let style = ExampleStyle(rawValue: options[1]) else {
                return fail("unknown style '\(options[1])'; use callback, promise, async or all")
            }
            styles = [style]
        } else {
            return fail("unexpected arguments '\(options.joined(separator: " "))'; see 'healthflow example --help'")
        }
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
            let outcome = await example.run(style, in: context)
            outcomes.append(outcome)
            print("── \(example.name) · \(style) ──")
            print(outcome)
        }
        if styles.count > 1 {
            let agree = outcomes.dropFirst().allSatisfy { $0 == outcomes[0] }
            print(agree ? "\nThe \(styles.count) styles agree." : "\nThe styles DISAGREE.")
            return agree ? 0 : 1
        }
        return 0
    }

    private static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("healthflow: \(message)\n".utf8))
        return 2
    }
}
