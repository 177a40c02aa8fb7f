import Foundation
import ProductSupport
import ReceiverSupport
import Testing

/// The tests' own Python environment (`TestPython`): built once, reused while the pins are unchanged, rebuilt
/// when they change, and when it cannot be built, a one-line reason with the fix instead of a traceback.
@Suite(.timeLimit(.minutes(10)))
struct TestPythonSetupTests {
    /// A private folder with a requirements file holding `lines`.
    private static func scratch(_ lines: String) throws -> (folder: URL, requirements: URL) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthflow-test-python-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let requirements = folder.appendingPathComponent("requirements.txt")
        try Data(lines.utf8).write(to: requirements)
        return (folder, requirements)
    }

    private static func oneLine(_ error: any Error) -> String {
        let text = "\(error)"
        #expect(!text.contains("\n"), "not one line: \(text)")
        #expect(!text.contains("Traceback"))
        return text
    }

    @Test func aMissingInterpreterIsOneLineNamingTheInstall() throws {
        let (folder, requirements) = try Self.scratch("")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: TestPythonError.self) {
            try TestPython.prepare(
                python: "python3-healthflow-absent", requirements: requirements,
                environment: folder.appendingPathComponent("venv"))
        }
        let text = Self.oneLine(try #require(error))
        #expect(text.contains("python3-healthflow-absent was not found on PATH"))
        #expect(text.contains("apt-get install python3 python3-venv"))
    }

    @Test func aMissingVenvModuleIsOneLineNamingTheInstall() throws {
        let (folder, requirements) = try Self.scratch("")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A `venv` package earlier on the path than the standard library's, as on a Python without python3-venv.
        let shadow = folder.appendingPathComponent("shadow/venv", isDirectory: true)
        try FileManager.default.createDirectory(at: shadow, withIntermediateDirectories: true)
        try Data("raise ImportError('no venv')\n".utf8).write(to: shadow.appendingPathComponent("__init__.py"))
        let error = #expect(throws: TestPythonError.self) {
            try TestPython.prepare(
                requirements: requirements, environment: folder.appendingPathComponent("venv"),
                overrides: ["PYTHONPATH": shadow.deletingLastPathComponent().path])
        }
        let text = Self.oneLine(try #require(error))
        #expect(text.contains("no 'venv' module"))
        #expect(text.contains("apt-get install python3-venv"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("venv").path))
    }

    @Test func anUnreachableIndexIsOneLineWithTheManualCommand() async throws {
        let (folder, requirements) = try Self.scratch("healthflow-no-such-package==1.0\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let venv = folder.appendingPathComponent("venv")
        let error = await #expect(throws: TestPythonError.self) {
            try await onOwnThread {
                try TestPython.prepare(
                    requirements: requirements, environment: venv,
                    overrides: ["PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "", "PIP_CONFIG_FILE": "/dev/null"])
            }
        }
        let text = Self.oneLine(try #require(error))
        #expect(text.contains("could not install the pinned test packages"))
        #expect(text.contains("\(venv.path)/bin/python3 -m pip install -r \(requirements.path)"))
        // No stamp: the next run tries again instead of trusting a half-built environment.
        #expect(!FileManager.default.fileExists(atPath: venv.appendingPathComponent("healthflow-stamp").path))
    }

    @Test func theEnvironmentIsReusedUntilItsPinsChange() async throws {
        let (folder, requirements) = try Self.scratch("# nothing pinned\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let venv = folder.appendingPathComponent("venv")
        let prepare = { @Sendable in try TestPython.prepare(requirements: requirements, environment: venv) }
        let python = try await onOwnThread(prepare)
        #expect(python.path == venv.appendingPathComponent("bin/python3").path)
        let marker = venv.appendingPathComponent("marker")
        try Data().write(to: marker)

        _ = try await onOwnThread(prepare)
        #expect(FileManager.default.fileExists(atPath: marker.path), "rebuilt although the pins did not change")

        try Data("# nothing pinned, changed\n".utf8).write(to: requirements)
        _ = try await onOwnThread(prepare)
        #expect(!FileManager.default.fileExists(atPath: marker.path), "not rebuilt after the pins changed")
    }

    @Test func theTestsEnvironmentHasThePinnedOracles() async throws {
        let python = try await TestPython.ready()
        #expect(python.path.hasPrefix(TestPython.environment.path))
        let finished = try await onOwnThread {
            try ChildProcess.run(python, arguments: ["-c", "import werkzeug, python_multipart"])
        }
        #expect(finished.termination == .exited(0), "\(finished.errorsText)")
    }
}
