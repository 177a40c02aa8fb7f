import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small HTTP server on 127.0.0.1 (Python standard library, OS-assigned port) for the HTTP transport tests.
///
/// The script is kept here as a string and written to a temp file, so the test target holds no `.py` file.
/// It prints its port on the first stdout line; `start()` reads that line (no sleeps). `stop()` kills it.
/// `Sendable`: every stored property is immutable and `Process` is `Sendable` in Foundation.
final class HTTPTestServer: Sendable {
    let port: Int
    private let process: Process
    private let directory: URL

    private init(port: Int, process: Process, directory: URL) {
        self.port = port
        self.process = process
        self.directory = directory
    }

    /// A URL on the server, e.g. `url("upload")`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)")!
    }

    /// Launches the server and waits for its port line.
    static func start() throws -> HTTPTestServer {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthsync-http-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("server.py")
        try Data(HTTPTestServerScript.source.utf8).write(to: script)
        let output = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while true {
            guard let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty else { break }
            if byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw HTTPTestServerError.noPort(String(decoding: line, as: UTF8.self))
        }
        return HTTPTestServer(port: port, process: process, directory: directory)
    }

    /// Kills the server with SIGKILL (a child of the test runner may inherit a blocked SIGTERM) and removes its
    /// temp directory.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// What the server saw for an idempotency key: requests, and the stored body's SHA-256 and length.
    func stats(key: String) async throws -> HTTPTestServerStats {
        let data = try await HTTPTestServer.get(url("stats/\(key)"))
        return try JSONDecoder().decode(HTTPTestServerStats.self, from: data)
    }

    private static func get(_ url: URL) async throws -> Data {
        var request = URLRequest(url: url)
        request.timeoutInterval = 10
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
            }.resume()
        }
    }
}

struct HTTPTestServerStats: Decodable {
    var requests: Int
    var stored: Bool
    var sha256: String?
    var bytes: Int?
    var chunked: Bool?
}

enum HTTPTestServerError: Error {
    case noPort(String)
}

/// Runs `body` with a fresh server, killing it afterwards even when `body` throws.
func withHTTPTestServer<T>(_ body: (HTTPTestServer) async throws -> T) async throws -> T {
    let server = try HTTPTestServer.start()
    do {
        let value = try await body(server)
        server.stop()
        return value
    } catch {
        server.stop()
        throw error
    }
}

enum HTTPTestServerScript {
    static let source = #"""
        import hashlib, json, socket, sys, threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        lock = threading.Lock()
        requests = {}   # idempotency key -> requests seen (every endpoint)
        stored = {}     # idempotency key -> {"sha256", "bytes"} (/upload, first time only)
        failures = {}   # idempotency key -> requests seen by /fail-then-ok

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def read_body(self):
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    body = bytearray()
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                        if size == 0:
                            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                                pass
                            return bytes(body)
                        body += self.rfile.read(size)
                        self.rfile.readline()
                return self.rfile.read(int(self.headers.get("Content-Length", "0")))

            def reply(self, status, obj, headers=()):
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                parts = self.path.strip("/").split("/")
                if len(parts) == 2 and parts[0] == "stats":
                    with lock:
                        info = {"requests": requests.get(parts[1], 0), "stored": parts[1] in stored}
                        info.update(stored.get(parts[1], {}))
                    self.reply(200, info)
                else:
                    self.reply(404, {})

            def do_POST(self):
                key = self.headers.get("Idempotency-Key", "")
                parts = self.path.strip("/").split("/")
                if parts[0] == "hang":
                    threading.Event().wait(30)
                    return
                if parts[0] == "drop":
                    self.rfile.read(1024)
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                body = self.read_body()
                with lock:
                    requests[key] = requests.get(key, 0) + 1
                if parts[0] == "upload":
                    with lock:
                        duplicate = key in stored
                        if not duplicate:
                            stored[key] = {"sha256": hashlib.sha256(body).hexdigest(), "bytes": len(body),
                                           "chunked": "Content-Length" not in self.headers}
                        received = len(stored)
                    self.reply(200, {"received": received, "duplicate": duplicate})
                elif parts[0] == "status" and len(parts) == 2:
                    code = int(parts[1])
                    headers = [("Retry-After", "1")] if code in (429, 503) else []
                    self.reply(code, {"status": code}, headers)
                elif parts[0] == "fail-then-ok" and len(parts) == 2:
                    with lock:
                        seen = failures.get(key, 0)
                        failures[key] = seen + 1
                    if seen < int(parts[1]):
                        self.reply(503, {"attempt": seen + 1})
                    else:
                        self.reply(200, {"received": 1, "duplicate": False})
                else:
                    self.reply(404, {})

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
