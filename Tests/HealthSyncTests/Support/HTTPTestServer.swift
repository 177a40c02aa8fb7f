import Foundation
import ProductSupport

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
/// `Sendable`: every stored property is immutable and `Sendable`.
final class HTTPTestServer: Sendable {
    let port: Int
    private let child: ChildProcess
    private let directory: URL

    private init(port: Int, child: ChildProcess, directory: URL) {
        self.port = port
        self.child = child
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
        let child = try ChildProcess.launch(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", script.path], output: .pipe,
            errors: .discarded)
        let line = try child.firstLine()
        guard let port = Int(line) else {
            child.signal(SIGKILL)
            _ = child.wait()
            throw HTTPTestServerError.noPort(line)
        }
        return HTTPTestServer(port: port, child: child, directory: directory)
    }

    /// Kills the server with SIGKILL (a child of the test runner may inherit a blocked SIGTERM) and removes its
    /// temp directory.
    func stop() {
        child.signal(SIGKILL)
        _ = child.wait()
        try? FileManager.default.removeItem(at: directory)
    }

    /// What the server saw for an idempotency key: requests, and the stored body's SHA-256 and length.
    func stats(key: String) async throws -> HTTPTestServerStats {
        let data = try await HTTPTestServer.get(url("stats/\(key)"))
        return try JSONDecoder().decode(HTTPTestServerStats.self, from: data)
    }

    /// Makes the server answer each of the next `count` connections it accepts with `200 OK` before the client
    /// sent a byte (then it reads and drops what the client still sends).
    func answerOnAccept(_ count: Int) async throws {
        _ = try await HTTPTestServer.get(url("answer-on-accept/\(count)"))
    }

    private static func get(_ url: URL) async throws -> Data {
        var request = URLRequest(url: url)
        request.timeoutInterval = 10
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, _, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: data ?? Data())
                }
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
    /// The stored request's header fields, in order, each `[name, value]`.
    var headers: [[String]]?
    /// Batches stored by the server, all keys together.
    var received: Int
    /// The `Retry-After` values /retry-after sent for this key, in order.
    var retryAfter: [String]
}

enum HTTPTestServerError: Error {
    case noPort(String)
}

/// Runs `body` with a fresh server, killing it afterwards even when `body` throws.
func withHTTPTestServer<T>(_ body: (HTTPTestServer) async throws -> T) async throws -> T {
    let server = try await onOwnThread { try HTTPTestServer.start() }
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
        import hashlib, json, socket, struct, sys, threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        lock = threading.Lock()
        requests = {}   # idempotency key -> requests seen (every endpoint)
        stored = {}     # idempotency key -> {"sha256", "bytes"} (/upload and /retry-after, first time only)
        failures = {}   # idempotency key -> requests seen by /fail-then-ok and /retry-after
        delays = {}     # idempotency key -> Retry-After values sent, in order
        eager = [0]     # how many of the next connections are answered 200 on accept (GET /answer-on-accept/K)

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def handle(self):
                # Armed by GET /answer-on-accept/K: a connection is answered 200 the moment it is accepted, before
                # the client sent a byte; then the server closes its sending side and reads and drops the rest.
                with lock:
                    armed = eager[0] > 0
                    if armed:
                        eager[0] -= 1
                if not armed:
                    return BaseHTTPRequestHandler.handle(self)
                self.connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                        b"Content-Length: 2\r\nConnection: close\r\n\r\n{}")
                self.drain()

            def drain(self):
                # Closes the sending side, then reads and discards whatever the client still sends.
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_WR)
                self.connection.settimeout(10)
                try:
                    while self.connection.recv(65536):
                        pass
                except OSError:
                    pass

            def answers_early(self):
                # /early-ok/close|drain/K: whether this request is one of the first K of its key.
                parts = self.path.strip("/").split("/")
                key = self.headers.get("Idempotency-Key", "")
                with lock:
                    return parts[0] == "early-ok" and len(parts) == 3 and failures.get(key, 0) < int(parts[2])

            def answer_on_head(self, status, obj, closing):
                # Answers before reading any of the body. "close": closes at once (unread bytes make the kernel
                # send RST); "drain": closes its sending side, then reads and discards the body.
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()
                self.close_connection = True
                if closing == "drain":
                    self.drain()
                self.connection.close()

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

            def read_raw(self, count):
                # Reads up to `count` bytes of whatever follows the headers (chunk framing included).
                got = 0
                while got < count:
                    data = self.rfile.read1(min(65536, count - got))
                    if not data:
                        break
                    got += len(data)
                return got

            def store(self, key, body):
                with lock:
                    duplicate = key in stored
                    if not duplicate:
                        stored[key] = {"sha256": hashlib.sha256(body).hexdigest(), "bytes": len(body),
                                       "chunked": "Content-Length" not in self.headers,
                                       "headers": [[name, value] for name, value in self.headers.items()]}
                    return duplicate, len(stored)

            def hang_up(self, reset):
                # FIN: an orderly shutdown. RST: SO_LINGER {on, 0 s} makes close() send a reset.
                self.close_connection = True
                if reset:
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                else:
                    self.connection.shutdown(socket.SHUT_RDWR)
                self.connection.close()

            def raw_reply(self, data):
                self.close_connection = True
                self.wfile.write(data)
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)

            def reply(self, status, obj, headers=()):
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def handle_expect_100(self):
                # A server that judges a request by its head answers an `Expect: 100-continue` with its final
                # status instead of "100 Continue": /reject-early does (do_POST sends the 413), the rest continue.
                if self.path.strip("/").startswith("reject-early") or self.answers_early():
                    return True
                return BaseHTTPRequestHandler.handle_expect_100(self)

            def do_GET(self):
                parts = self.path.strip("/").split("/")
                if len(parts) == 2 and parts[0] == "stats":
                    with lock:
                        info = {"requests": requests.get(parts[1], 0), "stored": parts[1] in stored,
                                "received": len(stored), "retryAfter": delays.get(parts[1], [])}
                        info.update(stored.get(parts[1], {}))
                    self.reply(200, info)
                elif len(parts) == 2 and parts[0] == "answer-on-accept":
                    with lock:
                        eager[0] = int(parts[1])
                    self.reply(200, {"armed": eager[0]})
                elif parts[0] == "upload":
                    # A naive receiver: answers 200 to whatever arrives, a body-less GET included.
                    key = self.headers.get("Idempotency-Key", "")
                    with lock:
                        requests[key] = requests.get(key, 0) + 1
                    self.reply(200, {"received": 0, "duplicate": False})
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
                if parts[0] == "reject-early":
                    # /reject-early/STATUS/close|drain: STATUS on the head alone (see answer_on_head).
                    with lock:
                        requests[key] = requests.get(key, 0) + 1
                    self.answer_on_head(int(parts[1]), {"error": "batch too large for this server"}, parts[2])
                    return
                if parts[0] == "early-ok" and self.answers_early():
                    # /early-ok/close|drain/K: the first K requests of a key get 200 on the head alone, no body
                    # byte read (see answer_on_head); later ones are stored as /upload does.
                    with lock:
                        requests[key] = requests.get(key, 0) + 1
                        failures[key] = failures.get(key, 0) + 1
                    self.answer_on_head(200, {"received": 0, "duplicate": False}, parts[1])
                    return
                if parts[0] == "drop-after":
                    # /drop-after/N/fin|rst[/K]: reads N bytes after the headers, then hangs up (FIN or RST);
                    # with K, only the first K requests of a key, later ones are stored as /upload does.
                    with lock:
                        seen = failures.get(key, 0)
                        failures[key] = seen + 1
                    if len(parts) < 4 or seen < int(parts[3]):
                        with lock:
                            requests[key] = requests.get(key, 0) + 1
                        self.read_raw(int(parts[1]))
                        self.hang_up(parts[2] == "rst")
                        return
                if parts[0] == "stall":
                    # Reads N bytes after the headers, then stops reading (up to 20 s) and hangs up.
                    with lock:
                        requests[key] = requests.get(key, 0) + 1
                    self.read_raw(int(parts[1]))
                    threading.Event().wait(20)
                    self.hang_up(True)
                    return
                body = self.read_body()
                with lock:
                    requests[key] = requests.get(key, 0) + 1
                if parts[0] in ("upload", "drop-after", "early-ok"):
                    duplicate, received = self.store(key, body)
                    self.reply(200, {"received": received, "duplicate": duplicate})
                elif parts[0] == "retry-after" and len(parts) == 4:
                    # /retry-after/STATUS/K/SECONDS: STATUS with Retry-After SECONDS K times, then stores.
                    with lock:
                        seen = failures.get(key, 0)
                        failures[key] = seen + 1
                    if seen < int(parts[2]):
                        with lock:
                            delays.setdefault(key, []).append(parts[3])
                        self.reply(int(parts[1]), {"attempt": seen + 1}, [("Retry-After", parts[3])])
                    else:
                        duplicate, received = self.store(key, body)
                        self.reply(200, {"received": received, "duplicate": duplicate})
                elif parts[0] == "slow" and len(parts) == 2:
                    # Reads the body, answers after SECONDS (the client has usually given up by then).
                    threading.Event().wait(float(parts[1]))
                    try:
                        self.reply(200, {"received": 0, "duplicate": False})
                    except OSError:
                        self.close_connection = True
                elif parts[0] == "redirect" and len(parts) >= 3:
                    # /redirect/STATUS/upload: STATUS to /upload; /redirect/STATUS/other-origin: to the same
                    # server under another host name (localhost); /redirect/STATUS/loop: to itself.
                    target = {"other-origin": "http://localhost:%d/upload" % self.server.server_address[1],
                              "loop": self.path, "upload": "/upload"}[parts[2]]
                    self.reply(int(parts[1]), {"moved": target}, [("Location", target)])
                elif parts[0] == "redirect-then-hang":
                    # The first request of a key: 307 to this same path; every later one is never answered.
                    with lock:
                        seen = failures.get(key, 0)
                        failures[key] = seen + 1
                    if seen == 0:
                        self.reply(307, {"moved": self.path}, [("Location", self.path)])
                    else:
                        threading.Event().wait(30)
                        self.close_connection = True
                elif parts[0] == "html" and len(parts) == 2:
                    # A web server's error page: a title, markup, many lines, a terminal escape sequence.
                    data = (b"<!DOCTYPE html>\n<html><head><title>\x1b[31mGateway error</title></head>\n"
                            b"<body>\n<h1>Upstream   failed</h1>\n" + b"<p>detail line</p>\n" * 200 + b"</body></html>\n")
                    self.send_response(int(parts[1]))
                    self.send_header("Content-Type", "text/html")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                elif parts[0] == "hostile-location":
                    # A 301 whose Location carries terminal escapes: clear screen, a window title, a reset, a CR.
                    self.raw_reply(b"HTTP/1.1 301 Moved Permanently\r\n"
                                   b"Location: /x\x1b[2J\x1b]0;pwned\x07\x1bc\rFAKE\r\n"
                                   b"Content-Length: 0\r\n\r\n")
                elif parts[0] == "garbage":
                    self.raw_reply(b"THIS IS NOT HTTP\r\n\r\n")
                elif parts[0] == "truncated":
                    self.raw_reply(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                   b"Content-Length: 1000\r\n\r\n{\"received\": 1")
                elif parts[0] == "text-ok":
                    duplicate, received = self.store(key, body)
                    data = b"OK, thanks"
                    self.send_response(200)
                    self.send_header("Content-Type", "text/plain")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
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
