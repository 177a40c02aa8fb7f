import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the `SyncProbe` executable (Tests/Support/SyncProbe) as a child process for the crash tests.
///
/// Every run is bounded: a watchdog SIGKILLs the child after `timeout` seconds, so a hung child ends the run (and
/// the test fails on the missing line) instead of hanging the test process.
enum SyncProbeProcess {
    struct Outcome {
        /// The lines the probe printed.
        var lines: [String]
        /// The exit status, or the signal for a killed probe.
        var status: Int32
        var reason: Process.TerminationReason
        var errors: String
    }

    static var executable: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("SyncProbe")
            }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent("SyncProbe")
    }

    /// Runs the probe over `directory`, uploading to `url`. With `stopAt`, waits for its `checkpoint` line and
    /// SIGKILLs it there; without, waits for it to exit.
    static func run(
        directory: URL, url: URL, stopAt: String? = nil, batchSize: Int = 40, timeout: Double = 120
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments =
            [directory.path, url.absoluteString, "--batch-size", String(batchSize)]
            + (stopAt.map { ["--stop-at", $0] } ?? [])
        let output = Pipe()
        let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("sync-probe-\(UUID()).err")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorURL) }
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let finished = Mutex(false)
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
                if let stopAt, lines.last?.hasPrefix("checkpoint \(stopAt) ") == true { break reading }
            }
        }
        finished.withLock { done in
            if stopAt != nil { kill(pid, SIGKILL) }
            done = true
        }
        process.waitUntilExit()
        let errors = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        return Outcome(
            lines: lines, status: process.terminationStatus, reason: process.terminationReason, errors: errors)
    }
}
