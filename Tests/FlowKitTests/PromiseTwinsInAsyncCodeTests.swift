import Foundation
import ProductSupport
import Testing

/// The compiler's answer to code that would get a promise where it wrote `try await`, or drop a failable chain:
/// each snippet is type-checked by the toolchain's `swiftc` against the modules this build produced.
@Suite(.serialized) struct PromiseTwinsInAsyncCodeTests {
    @Test(.enabled(if: Typechecker.found != nil, "needs swiftc on PATH and the build's Modules folder"))
    func topLevelTryAwaitWithoutAStatedTypeIsACompileError() async throws {
        let diagnostics = try await Typechecker.found!.check(
            """
            import FlowKit
            import HealthFlow
            let app = HealthAppConfiguration(
                bundleIdentifier: "com.example.steps", name: "Steps",
                healthShareUsageDescription: "Shows your steps.", healthUpdateUsageDescription: "Logs your walks.")
            let store = InMemoryHealthStore(configuration: app, policy: .grantAll)
            try await store.requestAuthorization(toShare: [.height], read: [])
            """, asFile: "main.swift")
        #expect(
            diagnostics.contains(
                "error: instance method 'requestAuthorization' is unavailable from asynchronous contexts; await the async twin instead"
            ), "top-level `try await` on a promise twin must stop the build, naming what to write:\n\(diagnostics)")
    }

    @Test(.enabled(if: Typechecker.found != nil, "needs swiftc on PATH and the build's Modules folder"))
    func aPromiseTwinInAnAsyncFunctionIsACompileError() async throws {
        let diagnostics = try await Typechecker.found!.check(
            """
            import FlowKit
            func wait() async throws {
                let timer: Promise<Void> = after(.seconds(1))
                _ = try await when(fulfilled: [timer])
            }
            """, asFile: "snippet.swift")
        #expect(
            diagnostics.contains(
                "error: global function 'after' is unavailable from asynchronous contexts; await the async twin instead"
            ),
            "a promise twin called in an async function must stop the build:\n\(diagnostics)")
        #expect(!diagnostics.contains("'when'"), "awaiting when(fulfilled:) over promises must use its async twin")
    }

    @Test(.enabled(if: Typechecker.found != nil, "needs swiftc on PATH and the build's Modules folder"))
    func aFailableChainEndingInDoneWithoutCatchWarns() async throws {
        let diagnostics = try await Typechecker.found!.check(
            """
            import FlowKit
            func start() {
                after(.seconds(1)).map { 1 }.done { _ in }
            }
            """, asFile: "snippet.swift")
        #expect(
            diagnostics.contains("warning: result of call to 'done(on:_:)' is unused"),
            "a chain ending in done without catch must warn:\n\(diagnostics)")
    }

    @Test(.enabled(if: Typechecker.found != nil, "needs swiftc on PATH and the build's Modules folder"))
    func aStartedGraphWhosePromiseIsDroppedWarns() async throws {
        let diagnostics = try await Typechecker.found!.check(
            """
            import FlowKit
            func start() {
                let graph = OperationGraph(name: "import")
                graph.add("read") { () throws -> Int in 1 }
                graph.start()
            }
            """, asFile: "snippet.swift")
        #expect(
            diagnostics.contains("warning: result of call to 'start()' is unused"),
            "a started graph whose failure nobody handles must warn:\n\(diagnostics)")
    }
}

/// Runs `swiftc -typecheck` on a snippet; found only when `swiftc` is on PATH and the build's `Modules` folder
/// sits beside the test runner.
struct Typechecker {
    let swiftc: URL
    let modules: URL

    static let found: Typechecker? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let swiftc = path.split(separator: ":").map {
            URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc")
        }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        let modules = Bundle.main.bundleURL.appendingPathComponent("Modules")
        guard let swiftc,
            FileManager.default.fileExists(atPath: modules.appendingPathComponent("FlowKit.swiftmodule").path)
        else { return nil }
        return Typechecker(swiftc: swiftc, modules: modules)
    }()

    /// The compiler's diagnostics for `source` saved as `name` (`main.swift` makes it top-level code); one
    /// `swiftc` run, stopped after a minute, waited for off the cooperative thread pool.
    func check(_ source: String, asFile name: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runSwiftc(on: source, asFile: name) })
            }
        }
    }

    private func runSwiftc(on source: String, asFile name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try source.write(to: file, atomically: true, encoding: .utf8)
        let finished = try ChildProcess.run(
            swiftc, arguments: ["-typecheck", "-swift-version", "6", "-I", modules.path, file.path],
            errors: .standardOutput, timeout: 60)
        return finished.outputText
    }
}
