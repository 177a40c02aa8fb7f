import Foundation
import ProductSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HealthSync test receiver (`Tests/Receiver/healthsync_receiver.py`, Werkzeug + python-multipart, run by
/// ``TestPython``'s interpreter) started as a child process on 127.0.0.1 with an OS-chosen port, for tests that need a real server.
///
/// `start()` reads the port from the receiver's first stdout line (no sleeps); `stop()` SIGKILLs it. The receiver
/// also exits by itself when its stdin closes (this process died) or after `lifetime` seconds.
///
/// - Note: `Sendable`: every stored property is immutable and `Sendable` (`FileHandle`'s only call after start is
///   `close`).
public final class TestReceiver: Sendable {
    /// The port the receiver listens on.
    public let port: Int
    private let child: ChildProcess
    private let directory: URL

    private init(port: Int, child: ChildProcess, directory: URL) {
        self.port = port
        self.child = child
        self.directory = directory
    }

    /// `Tests/Receiver/healthsync_receiver.py`, found from this source file's place in the checkout.
    public static let scriptURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Receiver/healthsync_receiver.py")

    /// The upload endpoint, `http://127.0.0.1:<port>/upload`.
    public var uploadURL: URL { url("upload") }

    /// A URL on the receiver, e.g. `url("stats")`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)")!
    }

    /// The receiver's stderr so far (Python tracebacks, when something went wrong).
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
    }

    /// Launches the receiver and waits for its port line.
    /// - Parameter lifetime: Seconds after which the receiver exits by itself.
    /// - Throws: ``TestPythonError`` when the tests' Python environment cannot be prepared;
    ///   ``TestReceiverError/noPort(_:)`` when the receiver's first line is not a port.
    public static func start(lifetime: Int = 600) throws -> TestReceiver {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthsync-receiver-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let errorURL = directory.appendingPathComponent("stderr")
        let child = try ChildProcess.launch(
            try TestPython.interpreter(), arguments: [scriptURL.path, "--lifetime", String(lifetime)],
            environment: ProcessInfo.processInfo.environment.merging(["PYTHONNOUSERSITE": "1"]) { $1 },
            input: .pipe, output: .pipe, errors: .file(errorURL))
        let text = try child.firstLine()
        guard let port = Int(text) else {
            child.signal(SIGKILL)
            _ = child.wait()
            let log = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: directory)
            throw TestReceiverError.noPort(text + log)
        }
        return TestReceiver(port: port, child: child, directory: directory)
    }

    /// SIGKILLs the receiver, waits for it and removes its temp folder; safe to call more than once.
    public func stop() {
        child.signal(SIGKILL)
        _ = child.wait()
        try? child.input?.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The totals over every stored batch.
    public func stats() async throws -> ReceiverStats {
        try JSONDecoder().decode(ReceiverStats.self, from: try await ReceiverHTTP.get(url("stats")))
    }

    /// How many times each sample UUID was counted.
    public func sampleCounts() async throws -> [UUID: Int] {
        let raw = try JSONDecoder().decode([String: Int].self, from: try await ReceiverHTTP.get(url("samples")))
        var counts: [UUID: Int] = [:]
        for (key, count) in raw {
            guard let uuid = UUID(uuidString: key) else { throw TestReceiverError.badAnswer("sample key \(key)") }
            counts[uuid] = count
        }
        return counts
    }

    /// The receipt the receiver keeps for a stored batch.
    public func receipt(for batchID: UUID) async throws -> ReceiverReceipt {
        try JSONDecoder().decode(
            ReceiverReceipt.self, from: try await ReceiverHTTP.get(url("batches/\(batchID.uuidString)")))
    }

    /// POSTs a raw body to `/upload` and returns the status and the decoded JSON answer.
    public func post(_ body: Data, contentType: String, idempotencyKey: String) async throws -> ReceiverAnswer {
        try await ReceiverHTTP.post(body, to: uploadURL, contentType: contentType, idempotencyKey: idempotencyKey)
    }
}

/// Why the test receiver could not be used.
public enum TestReceiverError: Error, CustomStringConvertible {
    /// The receiver's first line was not a port (the text, and its stderr).
    case noPort(String)
    /// An answer that was not what the receiver documents.
    case badAnswer(String)

    /// A readable message.
    public var description: String {
        switch self {
        case .noPort(let text): "the receiver printed no port: \(text)"
        case .badAnswer(let text): "unexpected receiver answer: \(text)"
        }
    }
}

/// Runs `body` with a fresh receiver, SIGKILLing it afterwards on every path.
public func withTestReceiver<T>(_ body: (TestReceiver) async throws -> T) async throws -> T {
    try await TestPython.ready()
    let receiver = try await onOwnThread { try TestReceiver.start() }
    do {
        let value = try await body(receiver)
        receiver.stop()
        return value
    } catch {
        receiver.stop()
        throw error
    }
}
