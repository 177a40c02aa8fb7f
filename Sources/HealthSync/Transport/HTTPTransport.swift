import FlowKit
import Foundation

/// An ``UploadTransport`` that POSTs each batch to a URL over HTTP/1.1: on Linux, `http://` URLs with its own
/// client over POSIX sockets, because FoundationNetworking keeps a core busy while a request waits for its answer
/// (see ``timeout``); `https://` on Linux and every URL elsewhere with `URLSession`.
///
/// Every attempt sends the request's content type and ``UploadRequest/idempotencyKey`` as `Idempotency-Key`,
/// and reads the body afresh: bodies up to ``dataThreshold`` bytes go whole with a `Content-Length`; larger ones
/// from a new stream, chunked, with `Expect: 100-continue` and no `Content-Length` header. Never from a file: on
/// Linux URLSession's `uploadTask(fromFile:)` crashes the process when the server drops the connection. A body
/// source that fails ends the attempt with its own error, never a connection error.
///
/// Redirects are the transport's own business (see ``RedirectPolicy``): a 307/308 within the same origin is
/// followed by sending the whole body again; any other redirect rejects with
/// ``HTTPUploadError/redirectRefused(status:location:)``. Neither client follows one by itself.
///
/// A 2xx to the request that carried the whole body fulfills with a receipt
/// (``UploadReceipt/Disposition/duplicate`` when the reply carries `Idempotent-Replayed: true` or a JSON body with
/// `"duplicate": true`); a 2xx that came before the whole body went out rejects with
/// ``HTTPUploadError/answeredBeforeBodySent(status:)``. Any other status rejects with
/// ``HTTPUploadError/http(status:retryAfter:message:)``, a failed connection with
/// ``HTTPUploadError/connection(code:)`` (the same `URLError` codes from both clients). Cancelling the promise
/// stops the exchange and closes its connection. Retries belong to ``Uploader``.
///
/// - Note: `Sendable`: it holds immutable values; the clients it uses (a `URLSession`, a socket exchange per
///   attempt) are thread-safe.
public struct HTTPTransport: ReportingUploadTransport {
    /// Where batches are POSTed.
    public let url: URL
    /// The deadline of one attempt's whole exchange — connecting, sending the body, waiting for and reading the
    /// answer — enforced by the transport itself (``HTTPUploadError/timedOut(after:)``), on every platform.
    ///
    /// Waiting costs no CPU for `http://` URLs on Linux: the transport's socket client sleeps in `poll(2)` until
    /// the server moves or the next limit is due (measured: about 0.01 s of CPU for the whole process over a 3 s
    /// wait). `https://` URLs on Linux still go through FoundationNetworking, and there waiting is not free:
    /// measured with Swift 6.3.1, any request waiting for its reply (a body-less GET too) keeps libdispatch's
    /// event loop spinning (~3,300 wake-ups a second, 2.5–2.9 s of CPU per 3 s of waiting) — FoundationNetworking
    /// never removes the write source it made for sending the request, and a connected socket is always writable.
    /// For HTTPS on Linux a short deadline is what bounds that cost.
    public let timeout: Duration
    /// How long one attempt may make no progress — no body byte sent, no response byte received — before it ends
    /// with ``HTTPUploadError/stalled(for:)``.
    public let stallLimit: Duration
    /// The largest body sent as `Data` (with `Content-Length`); larger bodies are streamed.
    public let dataThreshold: Int64
    /// Which redirects an upload follows (307/308 within the same origin, at most 3 hops, by default).
    public let redirects: RedirectPolicy
    /// Whether `http://` URLs on Linux go through URLSession too instead of the socket client — off, except in
    /// tests that hold both clients to the same behaviour.
    var prefersURLSession = false
    /// How long the socket client's streamed body waits for `100 Continue` before it is sent anyway: libcurl's
    /// second, longer only in tests whose server must answer on the head first whatever the machine's load.
    var continueWait = Duration.seconds(1)

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - url: Where to POST.
    ///   - timeout: The whole-exchange deadline of one attempt (60 s).
    ///   - stallLimit: The longest time without progress (30 s).
    ///   - dataThreshold: The largest body sent from memory (1 MiB).
    ///   - redirects: Which redirects to follow (``RedirectPolicy/init(maximumHops:allowsOtherOrigins:)``'s
    ///     defaults).
    public init(
        url: URL, timeout: Duration = .seconds(60), stallLimit: Duration = .seconds(30), dataThreshold: Int64 = 1 << 20,
        redirects: RedirectPolicy = RedirectPolicy()
    ) {
        self.url = url
        self.timeout = timeout
        self.stallLimit = stallLimit
        self.dataThreshold = dataThreshold
        self.redirects = redirects
    }

    /// POSTs `request` once (again from the body's start for each redirect ``redirects`` follows), reporting to
    /// `reporter`: each send as an attempt, a streamed body's bytes as they go out (as the socket takes them on
    /// the socket client; as URLSession reads them, ahead of the wire by at most libcurl's and the socket's
    /// buffers), a whole body's bytes all at once when the server answered 2xx.
    ///
    /// - Parameters:
    ///   - request: The upload.
    ///   - reporter: Where the attempt and its bytes are reported.
    /// - Returns: The receipt on a 2xx to the request that carried the whole body; rejects with
    ///   ``HTTPUploadError`` or ``UploadError`` (body unreadable, length mismatch) otherwise.
    public func upload(_ request: UploadRequest, reporter: UploadReporter) -> Promise<UploadReceipt> {
        let (promise, resolver) = Promise<UploadReceipt>.pending()
        send(request, to: url, hopsLeft: redirects.maximumHops, reporter: reporter, resolver: resolver)
        return promise
    }

    /// Sends the whole body to `target` with the client for its scheme (the socket client for `http://` on Linux,
    /// URLSession otherwise); on a redirect the ``redirects`` policy allows, sends it again, from its start, to the
    /// new location.
    private func send(
        _ request: UploadRequest, to target: URL, hopsLeft: Int, reporter: UploadReporter,
        resolver: Resolver<UploadReceipt>
    ) {
        guard !resolver.isCancelled else { return }
        reporter.attemptStarted(batchID: request.batchID, totalBytes: request.contentLength)
        let finish: @Sendable (Result<HTTPReply, any Error>) -> Void = { outcome in
            switch outcome {
            case .failure(let error):
                resolver.reject(error)
            case .success(let reply) where (300..<400).contains(reply.status):
                let location = reply.header("Location")
                if let next = redirectTarget(
                    status: reply.status, location: location, from: target, hopsLeft: hopsLeft)
                {
                    send(request, to: next, hopsLeft: hopsLeft - 1, reporter: reporter, resolver: resolver)
                } else {
                    resolver.reject(
                        HTTPUploadError.redirectRefused(
                            status: reply.status, location: location.map { ServerText.printable($0) }))
                }
            case .success(let reply):
                let result = Result { try Self.receipt(for: request, url: target, reply: reply) }
                if case .success = result { reporter.bodySent() }
                resolver.resolve(result)
            }
        }
        #if canImport(Glibc)
            if target.scheme?.lowercased() == "http", !prefersURLSession {
                do {
                    let exchange = try SocketHTTPExchange(
                        request: request, target: target, streamed: streams(request), timeout: timeout,
                        stallLimit: stallLimit, continueWait: continueWait, reporter: reporter)
                    resolver.onCancel { exchange.cancel() }
                    exchange.start(completion: finish)
                } catch {
                    resolver.reject(error)
                }
                return
            }
        #endif
        sendWithURLSession(request, to: target, reporter: reporter, resolver: resolver, finish: finish)
    }

    /// Whether `request`'s body is streamed (chunked) rather than sent whole with a `Content-Length`.
    func streams(_ request: UploadRequest) -> Bool {
        request.contentLength > dataThreshold
    }

    /// The whole body of `request`, read afresh.
    /// - Throws: The body's error, or ``UploadError/lengthMismatch(expected:actual:)`` when it is not
    ///   ``UploadRequest/contentLength`` bytes long.
    static func wholeBody(of request: UploadRequest) throws -> Data {
        try request.body.makeData(exactly: request.contentLength)
    }

    /// Where a redirect leads, when ``redirects`` allows following it: a 307 or 308 with a `Location` (absolute,
    /// or relative to `current`) on the same scheme, host and port unless other origins are allowed, and a hop
    /// left. `nil` refuses it.
    func redirectTarget(status: Int, location: String?, from current: URL, hopsLeft: Int) -> URL? {
        guard status == 307 || status == 308, hopsLeft > 0, let location,
            let next = URL(string: location, relativeTo: current)?.absoluteURL,
            let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https", next.host != nil
        else { return nil }
        if redirects.allowsOtherOrigins { return next }
        let sameOrigin =
            scheme == current.scheme?.lowercased() && next.host?.lowercased() == current.host?.lowercased()
            && Self.port(of: next) == Self.port(of: current)
        return sameOrigin ? next : nil
    }

    private static func port(of url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }

    /// The receipt for a final answer that is not a redirect: a 2xx is a receipt
    /// (``UploadReceipt/Disposition/duplicate`` when the reply carries `Idempotent-Replayed: true` or a JSON body
    /// with `"duplicate": true`); any other status throws ``HTTPUploadError/http(status:retryAfter:message:)`` with
    /// its `Retry-After` and one line of its body.
    static func receipt(for request: UploadRequest, url: URL, reply: HTTPReply) throws -> UploadReceipt {
        guard (200..<300).contains(reply.status) else {
            throw HTTPUploadError.http(
                status: reply.status, retryAfter: retryAfter(reply.header("Retry-After")), message: message(reply.body))
        }
        let replayed = reply.header("Idempotent-Replayed")?.lowercased() == "true"
        let disposition: UploadReceipt.Disposition = replayed || isDuplicateJSON(reply.body) ? .duplicate : .stored
        return UploadReceipt(
            batchID: request.batchID, disposition: disposition, bytesSent: request.contentLength,
            location: url.absoluteString)
    }

    /// `Retry-After` in its delta-seconds form; the HTTP-date form is ignored (the back-off applies).
    static func retryAfter(_ value: String?) -> Duration? {
        guard let value, let seconds = Int64(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
            return nil
        }
        return .seconds(seconds)
    }

    /// At most one short line of a reply's body, for an error message: the first line with text once markup
    /// tags and terminal escape sequences (CSI) are dropped and whitespace collapsed, made printable and cut
    /// short by ``ServerText/printable(_:)``. A whole HTML page never reaches a terminal.
    static func message(_ data: Data) -> String? {
        let text = String(decoding: data.prefix(8_192), as: UTF8.self)
            .replacing(/\x{1B}\[[0-9;?]*[ -\/]*[@-~]/, with: "").replacing(/<[^>]*>/, with: " ")
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !words.isEmpty else { continue }
            return ServerText.printable(words)
        }
        return nil
    }

    private static func isDuplicateJSON(_ data: Data) -> Bool {
        guard !data.isEmpty, data.count < 65_536,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return object["duplicate"] as? Bool == true
    }
}
