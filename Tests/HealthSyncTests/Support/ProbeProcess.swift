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
        /// How the probe ended.
        var termination: ChildProcess.Termination
        var errors: String

        /// The exit status, or the signal for a killed probe.
        var status: Int32 { termination.status }
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
        let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID()).err")
        defer { try? FileManager.default.removeItem(at: errorURL) }
        let child = try ChildProcess.launch(
            executable(name), arguments: arguments, output: .pipe, errors: .file(errorURL))
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { child.signal(SIGKILL) }
        var lines: [String] = []
        var buffer = Data()
        reading: while let reader = child.output {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
                if let stopAfter, stopAfter(lines[lines.count - 1]) { break reading }
            }
        }
        if stopAfter != nil { child.signal(SIGKILL) }
        let termination = child.wait()
        let errors = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        return Outcome(lines: lines, termination: termination, errors: errors)
    }
}
