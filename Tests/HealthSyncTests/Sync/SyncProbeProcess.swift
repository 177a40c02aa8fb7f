import Foundation

/// Runs the `SyncProbe` executable (Tests/Support/SyncProbe) as a child process for the crash tests, bounded by
/// ``ProbeProcess``'s watchdog.
enum SyncProbeProcess {
    /// Runs the probe over `directory`, uploading to `url`. With `stopAt` (`STEP` or `STEP:K`), waits for its
    /// `checkpoint` line and SIGKILLs it there; without, waits for it to exit.
    static func run(
        directory: URL, url: URL, stopAt: String? = nil, batchSize: Int = 40, timeout: Double = 120
    ) async throws -> ProbeProcess.Outcome {
        let stopAfter: (@Sendable (String) -> Bool)? = stopAt.map { stop in
            let step = String(stop.prefix { $0 != ":" })
            return { @Sendable line in line.hasPrefix("checkpoint \(step) ") }
        }
        return try await ProbeProcess.run(
            "SyncProbe",
            arguments: [directory.path, url.absoluteString, "--batch-size", String(batchSize)]
                + (stopAt.map { ["--stop-at", $0] } ?? []),
            stopAfter: stopAfter, timeout: timeout)
    }
}
