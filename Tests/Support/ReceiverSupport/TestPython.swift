import Foundation

/// The Python the tests' oracles and receiver run on: a private virtual environment in the package's build folder
/// (`.build/test-python/`) with the packages pinned in `Tests/Receiver/requirements.txt`, created on first use.
///
/// `Tests/Receiver/prepare_venv.py` does the work under a file lock, so concurrent test processes never build it
/// twice, and rebuilds it when the requirements file's SHA-256 no longer matches its stamp. Nothing outside that
/// folder is touched. The result is computed once per process.
///
/// ```swift
/// let python = try TestPython.interpreter()   // …/.build/test-python/bin/python3
/// ```
public enum TestPython {
    /// The package's root folder, found from this source file's place in the checkout.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Tests/Receiver/requirements.txt`.
    public static let requirements = packageRoot.appendingPathComponent("Tests/Receiver/requirements.txt")

    /// `.build/test-python`.
    public static let environment = packageRoot.appendingPathComponent(".build/test-python", isDirectory: true)

    private static let prepared = Result { try prepare() }

    /// The environment's interpreter, preparing the environment on first use.
    /// - Throws: ``TestPythonError`` with a one-line reason and the command that fixes it.
    public static func interpreter() throws -> URL {
        try prepared.get()
    }

    /// Prepares an environment with the given base interpreter and requirements (for tests of this setup).
    /// - Parameters:
    ///   - python: The base interpreter, looked up on `PATH` when it holds no `/`.
    ///   - requirements: The requirements file.
    ///   - environment: Where the virtual environment goes.
    ///   - overrides: Extra environment variables for the setup process.
    /// - Returns: The environment's interpreter.
    /// - Throws: ``TestPythonError``.
    public static func prepare(
        python: String = "python3", requirements: URL = requirements, environment: URL = environment,
        overrides: [String: String] = [:]
    ) throws -> URL {
        let script = packageRoot.appendingPathComponent("Tests/Receiver/prepare_venv.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script.path, environment.path, requirements.path]
        process.environment = ProcessInfo.processInfo.environment.merging(overrides) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lastLine = { (data: Data) in
            String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        }
        switch process.terminationStatus {
        case 0:
            return URL(fileURLWithPath: lastLine(stdout))
        case 127:
            throw TestPythonError.noPython(python)
        default:
            throw TestPythonError.setupFailed(lastLine(stderr))
        }
    }
}

/// Why the tests' Python environment could not be prepared; each description is one line with the fix.
public enum TestPythonError: Error, CustomStringConvertible {
    /// The base interpreter was not found on `PATH`.
    case noPython(String)
    /// `prepare_venv.py` failed; its one-line reason.
    case setupFailed(String)

    /// A readable message.
    public var description: String {
        switch self {
        case .noPython(let python):
            "\(python) was not found on PATH; the tests' HTTP receiver and multipart oracles need Python 3 with "
                + "its venv module: install it (e.g. 'apt-get install python3 python3-venv')"
        case .setupFailed(let reason): "the tests' Python environment could not be prepared: \(reason)"
        }
    }
}
