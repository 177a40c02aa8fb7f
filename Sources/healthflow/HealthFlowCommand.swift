import ActivityRingsExample
import ExampleSupport
import FlowKit
import Foundation
import ObserveAndUploadExample
import OperationChainsExample
import ReadHeightsExample
import SafeWritesExample
import WriteHeightExample

/// The `healthflow` command: the project's main job.
///
/// `healthflow demo` runs the FlowKit tour on the embedded default (no server, no setup). Later issues add the
/// health-store workflows, the ported examples and sync.
@main
struct HealthFlowCommand {
    static let usage = """
        USAGE: healthflow <command>

        COMMANDS:
          demo [--data DIR [--repair] | --in-memory]
                      Run every health workflow end to end on the embedded store over a generated year of data:
                      authorize → status → write → fetch → statistics → activity rings → parallel steps, each
                      step printed with its style and duration. Needs no setup, no server. The store is durable
                      and lives in a per-user folder ($HEALTHFLOW_DATA, else ~/.local/share/healthflow, or
                      ~/Library/Application Support/HealthFlow on Apple platforms); the first run generates the
                      year, later runs reopen it. --data DIR picks the folder; --in-memory keeps nothing.
                      A damaged store stops the command (exit 1, every byte kept); --repair keeps what is
                      readable, prints every loss and moves the damaged files into the store's damaged/ folder.
          tour        The FlowKit tour: one health task as nested callbacks, as a promise chain and with
                      async/await, then fan-out, retries, timeouts and cancellation.
          example NAME [--style callback|promise|async|all]
                      Run a ported seed example on the embedded store (default style: all, which also checks
                      that the three styles agree). 'healthflow example --list' lists them.
          sync --to URL|DIR [--data DIR [--repair] | --in-memory]
                      Send every sample and deletion recorded since the last sync, as gzip'd JSON in multipart
                      bodies, to an HTTP(S) endpoint (retried with back-off, one Idempotency-Key per batch) or to
                      an outbox directory DIR; a second run to the same destination sends only what is new
                      ("nothing to send"). Uses the demo's store; anchors are kept per destination beside it.
          help        Show this help (also --help, -h).

        Exit status: 0 on success, 1 when the demo or a sync fails, 2 for an unknown command or bad arguments.
        """

    static let demoUsage = """
        USAGE: healthflow demo [--data DIR [--repair] | --in-memory]

        Runs every health workflow end to end over a generated year of one person's data: authorize → check
        status → write → fetch → statistics → activity rings → an operation graph of parallel steps. Each step
        prints its style (callback, promise, async, graph), its duration and its result.

        The store is durable and lives in a per-user folder: $HEALTHFLOW_DATA if set, else
        $XDG_DATA_HOME/healthflow (~/.local/share/healthflow), or ~/Library/Application Support/HealthFlow on
        Apple platforms. The first run generates and stores the year; later runs reopen it.

        OPTIONS:
          --data DIR    keep the store in DIR instead
          --in-memory   keep everything in memory for this run only
          --repair      open a damaged store keeping what is readable: every loss is printed as a warning and
                        the damaged files are moved into the store's damaged/ folder (without it, damage stops
                        the demo with exit status 1 and changes nothing)
        """

    static func main() async {
        // Read from argv as bytes: CommandLine.arguments would turn bytes that are not UTF-8 into U+FFFD, and a
        // folder given with them into another folder. The words are compared as text; paths keep their bytes.
        let raw = RawCommandLine.arguments
        let arguments = raw.map(\.description)
        switch arguments.first {
        case "demo" where arguments.dropFirst().first == "--help" || arguments.dropFirst().first == "-h":
            print(demoUsage)
        case "tour" where arguments.dropFirst().first == "--help" || arguments.dropFirst().first == "-h":
            print(
                "USAGE: healthflow tour\n\nThe FlowKit tour: one health task as nested callbacks, as a promise chain and with\nasync/await, then fan-out, retries with back-off, timeouts and cancellation."
            )
        case "demo":
            switch DataLocation.parse(Array(raw.dropFirst())) {
            case .success(let location):
                let succeeded = await HealthDemo(output: StandardOutput(), location: location).run()
                exit(succeeded ? 0 : 1)
            case .failure(let error):
                FileHandle.standardError.write(Data("healthflow demo: \(error); see 'healthflow --help'\n".utf8))
                exit(2)
            }
        case "tour" where arguments.count == 1:
            let succeeded = await FlowKitTour(output: StandardOutput()).run()
            exit(succeeded ? 0 : 1)
        case "example":
            exit(await ExampleCommand.run(Array(raw.dropFirst())))
        case "sync":
            exit(await SyncCommand.run(Array(raw.dropFirst())))
        case "help", "--help", "-h":
            print(usage)
        case nil:
            print(usage)
            exit(2)
        case let command?:
            FileHandle.standardError.write(
                Data(
                    "healthflow: unknown command or arguments '\(arguments.joined(separator: " "))' (\(command)); see 'healthflow --help'\n"
                        .utf8))
            exit(2)
        }
    }
}

/// Where the demo writes its trace (a protocol, so tests could capture it).
protocol DemoOutput: Sendable {
    func line(_ text: String)
}

struct StandardOutput: DemoOutput {
    func line(_ text: String) {
        print(text)
    }
}
