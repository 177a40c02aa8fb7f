import Foundation

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A receiver process on 127.0.0.1 for the sync benchmarks: `python3 <script>`, which prints the port the OS gave
/// it on its first stdout line, counts the samples of every batch it is sent and answers `GET /stats`.
///
/// The script is `Benchmarks/Receiver/minimal_receiver.py` unless the environment variable
/// `HEALTHFLOW_RECEIVER_SCRIPT` names another one (the project's full receiver, for instance); the upload path is
/// `/upload` unless `HEALTHFLOW_RECEIVER_UPLOAD_PATH` says otherwise. The receiver is killed by ``stop()``, and exits
/// by itself when this process dies (its stdin, held here, closes).
final class LoopbackReceiver: Sendable {
    /// The script that runs when the environment names none.
    static let defaultScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Receiver/minimal_receiver.py")

    let port: Int
    private let process: Process
    private let stdin: Pipe

    private init(port: Int, process: Process, stdin: Pipe) {
        self.port = port
        self.process = process
        self.stdin = stdin
    }

    /// Where batches are posted.
    var uploadURL: URL {
        let path = ProcessInfo.processInfo.environment["HEALTHFLOW_RECEIVER_UPLOAD_PATH"] ?? "/upload"
        return URL(string: "http://127.0.0.1:\(port)\(path.hasPrefix("/") ? path : "/" + path)")!
    }

    /// Starts the receiver and waits for its port line.
    static func start() throws -> LoopbackReceiver {
        let script =
            ProcessInfo.processInfo.environment["HEALTHFLOW_RECEIVER_SCRIPT"].map {
                URL(fileURLWithPath: $0)
            } ?? defaultScript
        let output = Pipe()
        let input = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        // A bare port, or a URL ending in ":port".
        guard let port = Int(text) ?? text.split(separator: ":").last.flatMap({ Int($0.prefix { $0.isNumber }) })
        else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw LoopbackReceiverError.noPort(script: script.path, firstLine: text)
        }
        return LoopbackReceiver(port: port, process: process, stdin: input)
    }

    /// Kills the receiver (SIGKILL) and waits for it.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? stdin.fileHandleForWriting.close()
    }

    /// The receiver's running totals (`GET /stats`).
    func stats() async throws -> LoopbackReceiverStats {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/stats")!)
        request.timeoutInterval = 10
        let data: Data = try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: data ?? Data())
                }
            }.resume()
        }
        return try JSONDecoder().decode(LoopbackReceiverStats.self, from: data)
    }
}

/// What the receiver counted so far.
struct LoopbackReceiverStats: Decodable {
    var batches: Int
    var samples: Int
}

/// Why the receiver could not be started.
enum LoopbackReceiverError: Error, CustomStringConvertible {
    case noPort(script: String, firstLine: String)

    var description: String {
        switch self {
        case .noPort(let script, let line): "\(script) printed no port on its first line (got \"\(line)\")"
        }
    }
}
