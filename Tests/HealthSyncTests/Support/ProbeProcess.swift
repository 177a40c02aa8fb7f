import FlowKit
import Foundation
import ProductSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs one of the test helper executables (Tests/Support/…, built beside the test bundle) as a child process.
///
/// Every run is bounded: a watchdog SIGKILLs the child after `timeout` seconds, so a hung child ends the run (and
/// the test fails on the missing line) instead of hanging the test process.
enum ProbeProcess {
    struct Outcome {
        /// The lines the probe printed.
        var lines: [String]
        /// The exit status, or the signal for a killed probe.
        var status: Int32
        var reason: Process.TerminationReason
        var errors: String
    }

    /// The executable `name`, built beside the test bundle.
    static func executable(_ name: String) -> URL { BuiltProducts.executable(name) }

    /// Runs `name` with `arguments`. With `stopAfter`, SIGKILLs it as soon as a printed line satisfies it;
    /// without, waits for it to exit.
    static func run(
        _ name: String, arguments: [String], stopAfter: (@Sendable (String) -> Bool)? = nil, timeout: Double
    ) async throws -> Outcome {
        try await onOwnThread { try runToEnd(name, arguments: arguments, stopAfter: stopAfter, timeout: timeout) }
    }

    private static func runToEnd(
        _ name: String, arguments: [String], stopAfter: ((String) -> Bool)?, timeout: Double
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable(name)
        process.arguments = arguments
        let output = Pipe()
        let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID()).err")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorURL) }
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let finished = LockedState(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            finished.withLock { done in if !done { kill(pid, SIGKILL) } }
        }
        var lines: [String] = []
        var buffer = Data()
        let reader = output.fileHandleForReading
        reading: while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
                if let stopAfter, stopAfter(lines[lines.count - 1]) { break reading }
            }
        }
        finished.withLock { done in
            if stopAfter != nil { kill(pid, SIGKILL) }
            done = true
        }
        process.waitUntilExit()
        let errors = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        return Outcome(
            lines: lines, status: process.terminationStatus, reason: process.terminationReason, errors: errors)
    }
}
