import CChildProcess
import FlowKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process of the tests (the CLI, a probe, a Python server, a compiler), started so that concurrent
/// tests cannot tie their children together. Every test starts its children through this type.
///
/// Foundation's `Process` on Linux sees a child's end through a socket the child inherits, and a child started by
/// another thread at the same moment can inherit that socket, or a pipe, too: the first child's end (or its
/// output's end of file) is then seen only when the second one ends. A 600-second receiver inheriting that way
/// stalled a whole `swift test` for ten minutes. Here every pipe is close-on-exec, the child holds no descriptor
/// but its three standard ones (`posix_spawn` closes every other), and the end is seen with `waitid`, so one
/// child's end never waits for another's.
///
/// Waiting: ``wait()`` blocks its thread (call it from a thread of one's own, see `onOwnThread`); ``exit()``
/// awaits without holding one. A thread of the child's own waits for it from the start.
public final class ChildProcess: Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`.
        case nothing
        /// A pipe: write to ``ChildProcess/input``; closing it ends the child's input.
        case pipe
    }

    /// Where the child's standard output or error goes.
    public enum Output: Sendable {
        /// `/dev/null`.
        case discarded
        /// This process's own output or error.
        case inherited
        /// A pipe: read it from ``ChildProcess/output`` or ``ChildProcess/errors``.
        case pipe
        /// A file, created or emptied first.
        case file(URL)
        /// For standard error only: wherever standard output goes, interleaved as written.
        case standardOutput
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)

        /// The exit status, or the signal's number (as Foundation's `terminationStatus`).
        public var status: Int32 {
            switch self {
            case .exited(let status), .signalled(let status): status
            }
        }

        /// Whether a signal ended it.
        public var isSignal: Bool {
            if case .signalled = self { return true }
            return false
        }

        /// "exit status N" or "signal N".
        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)"
            }
        }
    }

    /// A child run to its end with everything it printed.
    public struct Finished: Sendable {
        /// How it ended.
        public var termination: Termination
        /// Its standard output (with its error too, for ``Output/standardOutput``).
        public var output: Data
        /// Its standard error, when it went to a pipe of its own.
        public var errors: Data
        /// Whether the time allowed ran out and the child was killed.
        public var timedOut: Bool

        /// The standard output as text (invalid UTF-8 replaced).
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        /// The standard error as text (invalid UTF-8 replaced).
        public var errorsText: String { String(decoding: errors, as: UTF8.self) }
    }

    private enum State {
        case running(semaphores: [DispatchSemaphore], continuations: [CheckedContinuation<Termination, Never>])
        case ended(Termination)
    }

    /// The child's process identifier.
    public let identifier: pid_t
    /// The writing end of its standard input, for ``Input/pipe``.
    public let input: FileHandle?
    /// The reading end of its standard output, for ``Output/pipe``.
    public let output: FileHandle?
    /// The reading end of its standard error, for ``Output/pipe``.
    public let errors: FileHandle?
    private let state = LockedState(State.running(semaphores: [], continuations: []))

    private init(identifier: pid_t, input: FileHandle?, output: FileHandle?, errors: FileHandle?) {
        self.identifier = identifier
        self.input = input
        self.output = output
        self.errors = errors
    }

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - environment: The whole environment; `nil` passes this process's own.
    ///   - directory: The child's working folder; `nil` keeps this process's.
    /// - Throws: ``ChildProcessError``.
    public static func launch(
        _ executable: URL, arguments: [String] = [], environment: [String: String]? = nil, directory: URL? = nil,
        input: Input = .nothing, output: Output = .pipe, errors: Output = .inherited
    ) throws -> ChildProcess {
        try launch(
            path: Array(executable.path.utf8), arguments: arguments.map { Array($0.utf8) },
            environment: environment.map { $0.map { Array("\($0.key)=\($0.value)".utf8) } }, directory: directory,
            input: input, output: output, errors: errors)
    }

    /// Starts the executable at the path `path` with `arguments`, both given as bytes (a name need not be UTF-8).
    /// - Parameter environment: Its variables, each `NAME=value`; `nil` passes this process's own.
    /// - Throws: ``ChildProcessError``.
    public static func launch(
        path: [UInt8], arguments: [[UInt8]], environment: [[UInt8]]?, directory: URL? = nil,
        input: Input = .nothing, output: Output = .pipe, errors: Output = .inherited
    ) throws -> ChildProcess {
        let name = String(decoding: path, as: UTF8.self)
        var descriptors = ChildDescriptors()
        defer { descriptors.closeChildEnds() }
        do throws(ChildCallFailure) {
            try descriptors.prepareInput(input)
            try descriptors.prepareOutput(output, slot: 1)
            try descriptors.prepareOutput(errors, slot: 2)
        } catch {
            descriptors.closeParentEnds()
            throw ChildProcessError.cannotStart(name, error.code)
        }
        let executable = cString(path)
        let argv = ([executable] + arguments.map(cString)).map(Optional.some) + [nil]
        let envp = environment.map { $0.map { Optional.some(cString($0)) } + [nil] }
        defer { (argv + (envp ?? [])).forEach { $0?.deallocate() } }
        var identifier = pid_t()
        let code = withEnvironment(envp) { environment in
            descriptors.stdio.withUnsafeBufferPointer { stdio in
                guard let directory else {
                    return hf_child_spawn(&identifier, executable, argv, environment, stdio.baseAddress, nil)
                }
                return directory.path.withCString {
                    hf_child_spawn(&identifier, executable, argv, environment, stdio.baseAddress, $0)
                }
            }
        }
        guard code == 0 else {
            descriptors.closeParentEnds()
            throw ChildProcessError.cannotStart(name, code)
        }
        let child = ChildProcess(
            identifier: identifier, input: descriptors.parentHandle(0), output: descriptors.parentHandle(1),
            errors: descriptors.parentHandle(2))
        Thread { child.waitForEnd() }.start()
        return child
    }

    /// Starts `executable` and runs it to its end, reading its pipes as it writes (neither fills up).
    /// - Parameter timeout: Seconds after which the child is killed (`SIGKILL`) and ``Finished/timedOut`` set.
    /// - Throws: ``ChildProcessError``.
    public static func run(
        _ executable: URL, arguments: [String] = [], environment: [String: String]? = nil, directory: URL? = nil,
        output: Output = .pipe, errors: Output = .pipe, timeout: Double? = nil
    ) throws -> Finished {
        try launch(
            executable, arguments: arguments, environment: environment, directory: directory, output: output,
            errors: errors
        ).finish(timeout: timeout)
    }

    /// Reads the child's output and error pipes to their ends, then waits for it to end (blocking).
    /// - Parameter timeout: Seconds after which the child is killed (`SIGKILL`) and ``Finished/timedOut`` set.
    public func finish(timeout: Double? = nil) -> Finished {
        let timedOut = LockedState(false)
        if let timeout {
            // The flag is set under its lock while the signal goes out, so the end this kill causes is never
            // seen before the flag.
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                timedOut.withLock { $0 = signal(SIGKILL) }
            }
        }
        let errorData = LockedState(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        if let errors {
            Thread {
                let data = errors.readDataToEndOfFile()
                errorData.withLock { $0 = data }
                errorsRead.signal()
            }.start()
        } else {
            errorsRead.signal()
        }
        let outputData = output?.readDataToEndOfFile() ?? Data()
        errorsRead.wait()
        let termination = wait()
        return Finished(
            termination: termination, output: outputData, errors: errorData.withLock { $0 },
            timedOut: timedOut.withLock { $0 })
    }

    /// The child's first line of output, without its newline (a server's port, printed once it listens): read a
    /// byte at a time, so nothing after it is taken from the pipe. Blocks until the newline or the end of output.
    public func firstLine() throws -> String {
        var line = Data()
        while let byte = try output?.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }

    /// Whether the child has not been seen to end yet.
    public var isRunning: Bool {
        state.withLock { state in
            if case .running = state { return true }
            return false
        }
    }

    /// Sends `signal` unless the child has already ended (its identifier may then belong to another process).
    /// - Returns: Whether the signal was sent.
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        state.withLock { state in
            guard case .running = state else { return false }
            return kill(identifier, signal) == 0
        }
    }

    /// Waits, blocking this thread, until the child has ended.
    public func wait() -> Termination {
        let semaphore = DispatchSemaphore(value: 0)
        let ended = state.withLock { state -> Termination? in
            switch state {
            case .ended(let termination):
                return termination
            case .running(var semaphores, let continuations):
                semaphores.append(semaphore)
                state = .running(semaphores: semaphores, continuations: continuations)
                return nil
            }
        }
        if let ended { return ended }
        semaphore.wait()
        return state.withLock { state in
            guard case .ended(let termination) = state else { preconditionFailure("signalled before the end") }
            return termination
        }
    }

    /// Awaits the child's end without holding a thread.
    public func exit() async -> Termination {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state -> Termination? in
                switch state {
                case .ended(let termination):
                    return termination
                case .running(let semaphores, var continuations):
                    continuations.append(continuation)
                    state = .running(semaphores: semaphores, continuations: continuations)
                    return nil
                }
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// Runs on the child's own thread: waits for the end, then reaps the child under the lock that ``signal(_:)``
    /// takes, so no signal is sent to a reaped identifier.
    private func waitForEnd() {
        let code = hf_child_wait_keeping_zombie(identifier)
        let (termination, semaphores, continuations) = state.withLock {
            state -> (Termination, [DispatchSemaphore], [CheckedContinuation<Termination, Never>]) in
            var status: Int32 = 0
            var reaped: pid_t = -1
            if code == 0 {
                repeat { reaped = waitpid(identifier, &status, 0) } while reaped < 0 && errno == EINTR
            }
            let termination: Termination =
                reaped < 0
                ? .exited(-1) : status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
            guard case .running(let semaphores, let continuations) = state else {
                preconditionFailure("a child ends once")
            }
            state = .ended(termination)
            return (termination, semaphores, continuations)
        }
        for semaphore in semaphores { semaphore.signal() }
        for continuation in continuations { continuation.resume(returning: termination) }
    }

    private static func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        return pointer
    }

    private static func withEnvironment<Result>(
        _ envp: [UnsafeMutablePointer<CChar>?]?, _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
    ) -> Result {
        if let envp { return envp.withUnsafeBufferPointer { body($0.baseAddress!) } }
        return body(environ)
    }
}

/// Why a child process could not be started.
public enum ChildProcessError: Error, CustomStringConvertible {
    /// Starting the executable (or making its pipes and files) failed with this `errno` value.
    case cannotStart(String, Int32)

    /// A readable message.
    public var description: String {
        switch self {
        case .cannotStart(let path, let code): "cannot start \(path): \(String(cString: strerror(code)))"
        }
    }
}
