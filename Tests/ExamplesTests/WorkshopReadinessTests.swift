import Foundation
import ProductSupport
import Testing

/// `Examples/ready.sh` removes a `.build` folder that was built in another place (a workshop folder copied with
/// its `.build` fails with "precompiled file … was compiled with module cache path …") and keeps one built here.
@Suite struct WorkshopReadinessTests {
    static let script = ExampleSourcePathsTests.root.appendingPathComponent("Examples/ready.sh").path

    /// Runs the script's first step on `package` and returns its output.
    func removeMovedBuild(in package: URL) throws -> String {
        let finished = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"), arguments: [Self.script, "--moved-build-only", package.path],
            errors: .inherited)
        #expect(finished.termination == .exited(0), "the readiness step must succeed")
        return finished.outputText
    }

    /// A package folder whose `.build/debug.yaml` names `builtIn` as the place it was built.
    func package(builtIn: (URL) -> String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString)")
        let build = folder.appendingPathComponent(".build")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        let real = URL(fileURLWithPath: folder.resolvingSymlinksInPath().path)
        let record = "targets:\n  \"x\": [\"\(builtIn(real))/.build/x86_64/debug/x.swiftmodule\"]\n"
        try Data(record.utf8).write(to: build.appendingPathComponent("debug.yaml"))
        return folder
    }

    @Test func aBuildFolderCopiedFromElsewhereIsRemoved() throws {
        let folder = try package { _ in "/home/teacher/workshop" }
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try removeMovedBuild(in: folder)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".build").path))
        #expect(output.contains("built in another place"), "the check says why it removed .build")
    }

    @Test func aBuildFolderBuiltHereIsKept() throws {
        let folder = try package { $0.path }
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try removeMovedBuild(in: folder)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".build/debug.yaml").path))
        #expect(output.isEmpty)
    }
}
