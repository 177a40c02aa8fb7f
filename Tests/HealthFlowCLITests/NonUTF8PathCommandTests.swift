import Foundation
import HealthFlow
import ProductSupport
import RawPathSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `healthflow` given folders whose names are not UTF-8 — in `argv` and in the environment — uses exactly those
/// folders. (Read through `CommandLine.arguments` or `ProcessInfo`, the bytes would become U+FFFD and the data
/// would land in another folder.) The binary is spawned with its arguments and environment as raw bytes
/// (`ChildProcess.launch(path:arguments:environment:)`; Foundation's `Process` takes only strings).
@Suite struct NonUTF8PathCommandTests {
    struct Run {
        let status: Int32
        let output: String
    }

    /// Runs `healthflow` with `arguments` as they are, and the environment with `overrides` (`NAME=bytes`) in
    /// place of any variable of the same name; stdout and stderr together.
    static func healthflow(_ arguments: [[UInt8]], environment overrides: [[UInt8]] = []) async throws -> Run {
        try await onOwnThread { try runToEnd(arguments, environment: overrides) }
    }

    private static func runToEnd(_ arguments: [[UInt8]], environment overrides: [[UInt8]]) throws -> Run {
        let executable = HealthFlowCommandTests.productsDirectory.appendingPathComponent("healthflow").path
        let names = overrides.compactMap { $0.split(separator: UInt8(ascii: "="), maxSplits: 1).first }
        var environment = overrides
        var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = environ
        while let variable = entry.pointee {
            let bytes = Array(UnsafeRawBufferPointer(start: variable, count: strlen(variable)))
            if !names.contains(where: { bytes.starts(with: $0 + [UInt8(ascii: "=")]) }) { environment.append(bytes) }
            entry += 1
        }
        let finished = try ChildProcess.launch(
            path: Array(executable.utf8), arguments: arguments, environment: environment, errors: .standardOutput
        ).finish()
        return Run(
            status: finished.termination.isSignal ? -1 : finished.termination.status, output: finished.outputText)
    }

    private static func words(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// `demo --data DIR` stores the year in DIR (a name with 0xFF), and `sync --to OUTBOX --data DIR` (an outbox
    /// with a broken sequence) reopens that store and delivers into OUTBOX, keeping its sync state inside DIR.
    @Test func demoAndSyncUseTheFoldersGivenAsBytes() async throws {
        let parent = RawPaths.temporaryFolder("cli-raw")
        defer { try? FileSystemPath(bytes: parent).removeTree() }
        let dataName = RawPaths.withFF("data-")
        let outboxName = RawPaths.withBrokenSequence("outbox-", "-box")
        let data = RawPaths.join(parent, dataName)
        let outbox = RawPaths.join(parent, outboxName)

        let demo = try await Self.healthflow([Self.words("demo"), Self.words("--data"), data])
        #expect(demo.status == 0, "\(demo.output)")
        #expect(demo.output.contains("a new store"), "\(demo.output)")
        #expect(RawPaths.names(in: parent) == [dataName])
        let stored = RawPaths.names(in: data).map { String(decoding: $0, as: UTF8.self) }
        #expect(stored.contains("segments.lock") && stored.contains { $0.hasPrefix("segment-log-") })

        let sync = try await Self.healthflow([
            Self.words("sync"), Self.words("--to"), outbox, Self.words("--data"), data,
        ])
        #expect(sync.status == 0, "\(sync.output)")
        #expect(sync.output.contains("sent "), "\(sync.output)")
        #expect(!sync.output.contains("generate"), "the sync reopened the demo's store")
        #expect(Set(RawPaths.names(in: parent)) == [dataName, outboxName])
        let batches = RawPaths.names(in: outbox)
        #expect(!batches.isEmpty && batches.allSatisfy { String(decoding: $0, as: UTF8.self).hasSuffix(".multipart") })
        let states = RawPaths.names(in: RawPaths.join(data, Self.words("sync")))
        #expect(states.count == 1)
        let state = RawPaths.join(RawPaths.join(data, Self.words("sync")), states.first ?? [])
        #expect(
            Set(RawPaths.names(in: state)).isSuperset(of: [
                Self.words("sync-state.json"), Self.words("destination.txt"),
            ]))
        let destination = try FileSystemPath(bytes: RawPaths.join(state, Self.words("destination.txt"))).readContents()
        #expect(destination == Self.words("outbox ") + outbox + [UInt8(ascii: "\n")])
        for folder in [parent, data, outbox, state] { #expect(!RawPaths.holdsReplacement(folder)) }
    }

    /// `$HEALTHFLOW_DATA` is read as bytes too: the store lands in the folder it names.
    @Test func theDataFolderFromTheEnvironmentIsUsedAsBytes() async throws {
        let parent = RawPaths.temporaryFolder("cli-env")
        defer { try? FileSystemPath(bytes: parent).removeTree() }
        let dataName = RawPaths.withFF("env-data-")
        let run = try await Self.healthflow(
            [Self.words("demo")], environment: [Self.words("HEALTHFLOW_DATA=") + RawPaths.join(parent, dataName)])
        #expect(run.status == 0, "\(run.output)")
        #expect(RawPaths.names(in: parent) == [dataName])
        #expect(RawPaths.names(in: RawPaths.join(parent, dataName)).contains(Self.words("segments.lock")))
        #expect(!RawPaths.holdsReplacement(parent))
    }
}
