import FlowKit
import Foundation
import ProductSupport

/// The Python the tests' oracles and receiver run on: a private virtual environment in the package's build folder
/// (`.build/test-python/`) with the packages pinned in `Tests/Receiver/requirements.txt`, created on first use.
///
/// `Tests/Receiver/prepare_venv.py` does the work under a file lock, so concurrent test processes never build it
/// twice, and rebuilds it when the requirements file's SHA-256 no longer matches its stamp. Nothing outside that
/// folder is touched. The result is computed once per process.
public enum TestPython {
    /// The package's root folder, found from this source file's place in the checkout.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Tests/Receiver/requirements.txt`.
    public static let requirements = packageRoot.appendingPathComponent("Tests/Receiver/requirements.txt")

    /// `.build/test-python`.
    public static let environment = packageRoot.appendingPathComponent(".build/test-python", isDirectory: true)

    private static let preparation = OneTimePreparation { try prepare() }

    /// The environment's interpreter, preparing the environment on first use. Blocks the calling thread while the
    /// environment is built (seconds, a minute on a loaded machine): async code awaits ``ready()`` first.
    /// - Throws: ``TestPythonError`` with a one-line reason and the command that fixes it.
    public static func interpreter() throws -> URL {
        try preparation.wait()
    }

    /// The environment's interpreter, built on a thread of its own: awaiting it never holds one of the few threads
    /// the other tests run on (a test blocked in `pip install` there would stall every other test).
    /// - Throws: As ``interpreter()``.
    @discardableResult
    public static func ready() async throws -> URL {
        try await preparation.value()
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
        let finished = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [python, script.path, environment.path, requirements.path],
            environment: ProcessInfo.processInfo.environment.merging(overrides) { $1 })
        let lastLine = { (data: Data) in
            String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        }
        switch finished.termination {
        case .exited(0):
            return URL(fileURLWithPath: lastLine(finished.output))
        case .exited(127):
            throw TestPythonError.noPython(python)
        default:
            throw TestPythonError.setupFailed(lastLine(finished.errors))
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

/// Runs `work` once, on a thread of its own, the first time anyone asks; every caller — blocking or awaiting —
/// gets its result.
final class OneTimePreparation: Sendable {
    private enum State {
        case idle
        case running([CheckedContinuation<URL, any Error>], [DispatchSemaphore])
        case done(Result<URL, any Error>)
    }

    private let work: @Sendable () throws -> URL
    private let state = LockedState(State.idle)

    init(_ work: @escaping @Sendable () throws -> URL) {
        self.work = work
    }

    func value() async throws -> URL {
        try await withCheckedThrowingContinuation { continuation in
            let (finished, start) = state.withLock { state -> (Result<URL, any Error>?, Bool) in
                switch state {
                case .idle:
                    state = .running([continuation], [])
                    return (nil, true)
                case .running(var waiters, let semaphores):
                    waiters.append(continuation)
                    state = .running(waiters, semaphores)
                    return (nil, false)
                case .done(let result):
                    return (result, false)
                }
            }
            if let finished { continuation.resume(with: finished) }
            if start { run() }
        }
    }

    func wait() throws -> URL {
        let semaphore = DispatchSemaphore(value: 0)
        let (finished, start) = state.withLock { state -> (Result<URL, any Error>?, Bool) in
            switch state {
            case .idle:
                state = .running([], [semaphore])
                return (nil, true)
            case .running(let waiters, var semaphores):
                semaphores.append(semaphore)
                state = .running(waiters, semaphores)
                return (nil, false)
            case .done(let result):
                return (result, false)
            }
        }
        if let finished { return try finished.get() }
        if start { run() }
        semaphore.wait()
        return try state.withLock { state -> Result<URL, any Error> in
            guard case .done(let result) = state else { preconditionFailure("signalled before done") }
            return result
        }.get()
    }

    private func run() {
        let thread = Thread { [self] in finish(Result { try work() }) }
        thread.start()
    }

    private func finish(_ result: Result<URL, any Error>) {
        let waiting: ([CheckedContinuation<URL, any Error>], [DispatchSemaphore]) = state.withLock { state in
            let waiting: ([CheckedContinuation<URL, any Error>], [DispatchSemaphore])
            if case .running(let waiters, let semaphores) = state {
                waiting = (waiters, semaphores)
            } else {
                waiting = ([], [])
            }
            state = .done(result)
            return waiting
        }
        for waiter in waiting.0 { waiter.resume(with: result) }
        for semaphore in waiting.1 { semaphore.signal() }
    }
}
