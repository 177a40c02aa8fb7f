#if canImport(Glibc)
    import Foundation
    import Glibc

    /// One attempt's HTTP/1.1 POST over a POSIX socket, run on a thread of its own: ``HTTPTransport``'s client for
    /// `http://` URLs on Linux, where URLSession keeps a core busy while it waits (see ``HTTPTransport/timeout``).
    ///
    /// The request carries `Host`, `Content-Type`, `Idempotency-Key` and `Connection: close` (one request per
    /// connection), and the body read afresh from the ``UploadRequest``: the whole of it with a `Content-Length`
    /// when `streamed` is false; otherwise from a new stream in chunks of at most 64 KiB with
    /// `Transfer-Encoding: chunked` and `Expect: 100-continue` — the body waits for `100 Continue`, a final answer,
    /// or `continueWait` (one second, libcurl's; for servers that ignore the header), whichever comes first. Never
    /// both framings.
    ///
    /// Rules of the exchange:
    /// - The answer is read whenever it comes. A final answer that arrives before the whole request went out ends
    ///   the sending, whatever happens to the connection after its head (a server may reject a body unread and
    ///   close): a non-2xx one is the outcome; a 2xx one is not a delivery — the server cannot have the whole
    ///   body — and ends the exchange with ``HTTPUploadError/answeredBeforeBodySent(status:)``. A later answer
    ///   must arrive whole (see ``HTTPResponseParser``). "Went out" means handed to the socket: the last byte of
    ///   a whole body, or the last, empty chunk of a streamed one.
    /// - A body source that fails ends the exchange with its own error (the stream's `streamError`, or
    ///   ``UploadError/bodyUnavailable(_:)``), never a connection error. A streamed body's bytes are reported to
    ///   the reporter as the socket takes them; a whole body's are not (the transport reports them on a 2xx).
    /// - ``HTTPUploadError/timedOut(after:)`` when the exchange outlasts `timeout` from its start (connecting
    ///   included); ``HTTPUploadError/stalled(for:)`` when no byte went out or came in for `stallLimit`. The
    ///   thread sleeps in `poll(2)` until the socket is ready, the next of these deadlines, or a cancellation — no
    ///   polling timer, so waiting costs no CPU. Name resolution is the exception: `getaddrinfo` blocks and is not
    ///   cut short by either limit.
    /// - ``cancel()`` wakes the thread at once; it closes the socket and ends with `CancellationError`.
    /// - A content type with a control character is refused before connecting as a bad request
    ///   (``HTTPUploadError/connection(code:)`` −1000, never retried): it would break the head.
    /// - Connection failures are the `URLError` codes URLSession reports (see ``TCPSocket`` and
    ///   ``HTTPResponseParser``).
    ///
    /// - Note: `Sendable`: every stored property is immutable and `Sendable`; the mutable state of a run lives on
    ///   its thread only.
    final class SocketHTTPExchange: Sendable {
        /// The largest chunk of a streamed body.
        static let chunkBytes = 65_536

        private let request: UploadRequest
        private let target: URL
        private let streamed: Bool
        private let timeout: Duration
        private let stallLimit: Duration
        private let continueWait: Duration
        private let reporter: UploadReporter
        private let wakeup: SocketWakeup

        /// Prepares the exchange; ``start(completion:)`` runs it.
        /// - Throws: ``HTTPUploadError/connection(code:)`` −1004 when no descriptor is left for its wake-up pair.
        init(
            request: UploadRequest, target: URL, streamed: Bool, timeout: Duration, stallLimit: Duration,
            continueWait: Duration, reporter: UploadReporter
        ) throws(HTTPUploadError) {
            self.request = request
            self.target = target
            self.streamed = streamed
            self.timeout = timeout
            self.stallLimit = stallLimit
            self.continueWait = continueWait
            self.reporter = reporter
            wakeup = try SocketWakeup()
        }

        /// Runs the exchange on a new thread and calls `completion` there, once, with the final answer (any status)
        /// or the error that ended it.
        func start(completion: @escaping @Sendable (Result<HTTPReply, any Error>) -> Void) {
            let thread = Thread { [self] in
                let result = Result { try run() }
                wakeup.close()
                completion(result)
            }
            thread.name = "HealthSync HTTP exchange"
            thread.start()
        }

        /// Stops the exchange at once (it ends with `CancellationError`); callable from any thread, any number of
        /// times.
        func cancel() {
            wakeup.cancel()
        }

        private func run() throws -> HTTPReply {
            let clock = ExchangeClock(wakeup: wakeup, timeout: timeout, stallLimit: stallLimit)
            guard var host = target.host, !host.isEmpty else { throw HTTPUploadError.connection(code: -1000) }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            let data = streamed ? nil : try HTTPTransport.wholeBody(of: request)
            let stream = streamed ? try request.body.makeInputStream() : nil
            let head = try requestHead(host: host, contentLength: data?.count)
            let socket = try TCPSocket.connect(host: host, port: target.port ?? 80) { descriptor in
                _ = try clock.wait(for: descriptor, events: Int16(POLLOUT))
            }
            defer { socket.close() }
            let run = ExchangeRun(
                socket: socket, clock: clock, reporter: reporter, request: head + (data.map { [UInt8]($0) } ?? []),
                stream: stream, continueWait: continueWait)
            return try run.reply()
        }

        /// The request's head, ending in its empty line.
        private func requestHead(host: String, contentLength: Int?) throws(HTTPUploadError) -> [UInt8] {
            guard !request.contentType.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw .connection(code: -1000) }
            let components = URLComponents(url: target, resolvingAgainstBaseURL: true)
            var path = components?.percentEncodedPath ?? "/"
            if path.isEmpty { path = "/" }
            if let query = components?.percentEncodedQuery { path += "?" + query }
            let authority =
                (host.contains(":") ? "[\(host)]" : host) + (target.port.map { $0 == 80 ? "" : ":\($0)" } ?? "")
            var lines = [
                "POST \(path) HTTP/1.1", "Host: \(authority)", "Content-Type: \(request.contentType)",
                "Idempotency-Key: \(request.idempotencyKey)",
            ]
            if let contentLength {
                lines.append("Content-Length: \(contentLength)")
            } else {
                lines += ["Transfer-Encoding: chunked", "Expect: 100-continue"]
            }
            lines.append("Connection: close")
            return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        }
    }

    /// The part of a ``SocketHTTPExchange`` after it connected: sends the request, reads the answer, and applies
    /// the exchange's rules (see there) as the socket becomes ready.
    ///
    /// Not `Sendable`: it lives on the exchange's thread only.
    private final class ExchangeRun {
        /// Where the request is.
        private enum Phase {
            /// The bytes queued first (the head, and a whole body with it) are going out.
            case sending
            /// A streamed body waits for `100 Continue` until then.
            case awaitingContinue(until: ContinuousClock.Instant)
            /// A streamed body's chunks are going out.
            case streaming
            /// The last, empty chunk is going out.
            case lastChunk
            /// The whole request went out.
            case sent
        }

        private let socket: TCPSocket
        private var clock: ExchangeClock
        private let reporter: UploadReporter
        private let stream: InputStream?
        private let continueWait: Duration
        private var outgoing: OutgoingBytes
        private var parser = HTTPResponseParser()
        private var phase = Phase.sending
        /// Whether the final answer's head came before the whole request went out.
        private var answeredEarly = false
        private var chunk = [UInt8](repeating: 0, count: SocketHTTPExchange.chunkBytes)
        private var incoming = [UInt8](repeating: 0, count: 65_536)

        /// - Parameters:
        ///   - request: The head, with a whole body after it.
        ///   - stream: A streamed body, unopened; `nil` for a whole one.
        ///   - continueWait: How long `stream` waits for `100 Continue` before it is sent anyway.
        init(
            socket: TCPSocket, clock: ExchangeClock, reporter: UploadReporter, request: [UInt8], stream: InputStream?,
            continueWait: Duration
        ) {
            self.socket = socket
            self.clock = clock
            self.reporter = reporter
            self.stream = stream
            self.continueWait = continueWait
            outgoing = OutgoingBytes(request)
        }

        private var requestSent: Bool {
            if case .sent = phase { true } else { false }
        }

        /// Whether bytes may go out now: the request is not all out, no final answer came, and no `100 Continue`
        /// is awaited.
        private var sending: Bool {
            if case .awaitingContinue = phase { return false }
            return parser.head == nil && !outgoing.isEmpty
        }

        /// Runs the exchange to its end.
        /// - Returns: The final answer: any status once the whole request went out, a non-2xx one before.
        /// - Throws: What ended it (see ``SocketHTTPExchange``);
        ///   ``HTTPUploadError/answeredBeforeBodySent(status:)`` for a 2xx that came before the whole request
        ///   went out.
        func reply() throws -> HTTPReply {
            stream?.open()
            defer { stream?.close() }
            while true {
                if parser.head == nil, outgoing.isEmpty { try advance() }
                var until: ContinuousClock.Instant?
                if case .awaitingContinue(let end) = phase { until = end }
                let events = Int16(POLLIN) | (sending ? Int16(POLLOUT) : 0)
                guard let ready = try clock.wait(for: socket.descriptor, events: events, until: until) else {
                    phase = .streaming
                    continue
                }
                if ready & Int16(POLLIN | POLLHUP | POLLERR) != 0, try receive() { break }
                if sending, ready & Int16(POLLOUT) != 0, try send() { break }
            }
            guard let reply = parser.reply else { throw HTTPUploadError.connection(code: -1) }
            return try reply.outcome(wholeRequestSent: requestSent)
        }

        /// Moves on once the queued bytes went out: to waiting for `100 Continue`, to the next chunk of a streamed
        /// body (read here, blocking), or to the end of the request.
        /// - Throws: The body stream's error.
        private func advance() throws {
            switch phase {
            case .sending:
                phase = stream == nil ? .sent : .awaitingContinue(until: .now + continueWait)
            case .streaming:
                guard let stream else { return }
                let count = chunk.withUnsafeMutableBufferPointer { buffer in
                    buffer.baseAddress.map { stream.read($0, maxLength: buffer.count) } ?? -1
                }
                if count < 0 {
                    throw stream.streamError ?? UploadError.bodyUnavailable("the body's stream failed without an error")
                }
                if count == 0 {
                    outgoing = OutgoingBytes(Array("0\r\n\r\n".utf8))
                    phase = .lastChunk
                    return
                }
                var framed = Array((String(count, radix: 16, uppercase: true) + "\r\n").utf8)
                let payload = framed.count..<(framed.count + count)
                framed.append(contentsOf: chunk[0..<count])
                framed.append(contentsOf: "\r\n".utf8)
                outgoing = OutgoingBytes(framed, payload: payload)
            case .lastChunk:
                phase = .sent
            case .awaitingContinue, .sent:
                return
            }
        }

        /// Reads all that has arrived.
        /// - Returns: Whether the exchange is over: the answer is complete, or the connection ended after an early
        ///   answer (which ``reply()`` then judges by its status).
        private func receive() throws -> Bool {
            while true {
                let count: Int?
                do {
                    count = try incoming.withUnsafeMutableBytes { try socket.receive(into: $0) }
                } catch {
                    if answeredEarly { return true }
                    throw error
                }
                guard let count else { return false }
                if count == 0 {
                    if !answeredEarly { try parser.finish(requestSent: requestSent) }
                    return true
                }
                clock.progressed()
                let complete = try incoming.withUnsafeBytes {
                    try parser.consume(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
                }
                if parser.head != nil, !requestSent { answeredEarly = true }
                if case .awaitingContinue = phase, parser.interimCount > 0 { phase = .streaming }
                if complete { return true }
            }
        }

        /// Sends what the socket takes of the queued bytes and reports the body bytes among them.
        /// - Returns: Whether the exchange is over (an early answer arrived complete as the connection failed).
        /// - Throws: The connection's failure, unless a final answer arrived before it.
        private func send() throws -> Bool {
            do {
                let sent = try outgoing.send(on: socket)
                if sent.count > 0 { clock.progressed() }
                if sent.body > 0 { reporter.add(sentBytes: Int64(sent.body)) }
                return false
            } catch {
                // A server that answers early may close before it reads the whole body: its answer, once here, is
                // the outcome.
                if (try? receive()) == true { return true }
                guard parser.head != nil else { throw error }
                answeredEarly = true
                return false
            }
        }
    }

    /// An exchange's two limits and its cancellation, applied to every wait.
    private struct ExchangeClock {
        let wakeup: SocketWakeup
        let timeout: Duration
        let stallLimit: Duration
        let deadline: ContinuousClock.Instant
        private(set) var lastProgress: ContinuousClock.Instant

        init(wakeup: SocketWakeup, timeout: Duration, stallLimit: Duration) {
            self.wakeup = wakeup
            self.timeout = timeout
            self.stallLimit = stallLimit
            let start = ContinuousClock.now
            deadline = start + timeout
            lastProgress = start
        }

        /// A byte went out or came in.
        mutating func progressed() {
            lastProgress = .now
        }

        /// Sleeps in `poll(2)` until `descriptor` reports one of `events` (or an error or hang-up).
        /// - Returns: The descriptor's `revents`, or `nil` once `until` passed.
        /// - Throws: ``HTTPUploadError/timedOut(after:)`` past the deadline, ``HTTPUploadError/stalled(for:)``
        ///   after `stallLimit` without progress, `CancellationError` once cancelled.
        func wait(for descriptor: Int32, events: Int16, until: ContinuousClock.Instant? = nil) throws -> Int16? {
            while true {
                if wakeup.isCancelled { throw CancellationError() }
                let now = ContinuousClock.now
                if now >= deadline { throw HTTPUploadError.timedOut(after: timeout) }
                if now >= lastProgress + stallLimit { throw HTTPUploadError.stalled(for: stallLimit) }
                if let until, now >= until { return nil }
                let wake = min(deadline, lastProgress + stallLimit, until ?? deadline)
                var descriptors = [
                    pollfd(fd: descriptor, events: events, revents: 0),
                    pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&descriptors, 2, Self.milliseconds(wake - now))
                if ready < 0, errno != EINTR { throw HTTPUploadError.connection(code: -1005) }
                if ready > 0, descriptors[1].revents == 0 { return descriptors[0].revents }
            }
        }

        /// `duration` in whole milliseconds, rounded up (a wait never ends before its deadline and spins).
        private static func milliseconds(_ duration: Duration) -> Int32 {
            let (seconds, attoseconds) = duration.components
            let total = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            return Int32(clamping: max(total, 0))
        }
    }

    /// Bytes queued for the socket, and which of them are body bytes to report.
    private struct OutgoingBytes {
        private let bytes: [UInt8]
        private let payload: Range<Int>
        private var offset = 0

        init(_ bytes: [UInt8], payload: Range<Int> = 0..<0) {
            self.bytes = bytes
            self.payload = payload
        }

        var isEmpty: Bool { offset >= bytes.count }

        /// Sends what the socket takes now.
        /// - Returns: The bytes sent, and how many of them were body bytes.
        mutating func send(on socket: TCPSocket) throws -> (count: Int, body: Int) {
            let start = offset
            let sent = try bytes.withUnsafeBytes { raw in
                try socket.send(UnsafeRawBufferPointer(rebasing: raw[start...]))
            }
            offset += sent
            let body = max(0, min(offset, payload.upperBound) - max(start, payload.lowerBound))
            return (sent, body)
        }
    }
#endif
