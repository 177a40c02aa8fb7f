import FlowKit
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``UploadTransport`` that POSTs each batch to a URL with `URLSession` (FoundationNetworking on Linux).
///
/// Every attempt sends the request's content type and ``UploadRequest/idempotencyKey`` as `Idempotency-Key`,
/// and reads the body afresh: bodies up to ``dataThreshold`` bytes go as `Data` with a `Content-Length`;
/// larger ones as a new `httpBodyStream` with no `Content-Length` header (chunked). Never from a file: on
/// Linux `uploadTask(fromFile:)` crashes the process when the server drops the connection.
///
/// Redirects are the transport's own business (see ``RedirectPolicy``): a 307/308 within the same origin is
/// followed by sending the whole body again; any other redirect rejects with
/// ``HTTPUploadError/redirectRefused(status:location:)``. URLSession itself never follows one.
///
/// A 2xx fulfills with a receipt (``UploadReceipt/Disposition/duplicate`` when the reply carries
/// `Idempotent-Replayed: true` or a JSON body with `"duplicate": true`). Any other status rejects with
/// ``HTTPUploadError/http(status:retryAfter:message:)``, a `URLError` with ``HTTPUploadError/connection(code:)``.
/// Cancelling the promise cancels the URL task. Retries belong to ``Uploader``.
///
/// ```swift
/// let transport = HTTPTransport(url: URL(string: "https://sync.example.com/upload")!)
/// let receipt = try await transport.upload(request)
/// ```
/// - Note: `Sendable`: it holds immutable values and a `URLSession`, which is thread-safe.
public struct HTTPTransport: UploadTransport {
    /// Where batches are POSTed.
    ///
    /// ```swift
    /// transport.url.absoluteString   // "https://sync.example.com/upload"
    /// ```
    public let url: URL
    /// The deadline of one attempt's whole exchange — connecting, sending the body, waiting for and reading the
    /// answer — enforced by the transport itself (``HTTPUploadError/timedOut(after:)``), on every platform.
    ///
    /// Waiting costs CPU on Linux: measured with Swift 6.3.1's FoundationNetworking, any request waiting for its
    /// reply (a body-less GET too) keeps libdispatch's event loop spinning (~3,300 wake-ups a second, 2.5–2.9 s
    /// of CPU per 3 s of waiting), so a short deadline also bounds that cost.
    ///
    /// ```swift
    /// transport.timeout   // .seconds(60)
    /// ```
    public let timeout: Duration
    /// How long one attempt may make no progress — no body byte sent, no response byte received — before it ends
    /// with ``HTTPUploadError/stalled(for:)``.
    ///
    /// ```swift
    /// transport.stallLimit   // .seconds(30)
    /// ```
    public let stallLimit: Duration
    /// The largest body sent as `Data` (with `Content-Length`); larger bodies are streamed.
    ///
    /// ```swift
    /// transport.dataThreshold   // 1_048_576
    /// ```
    public let dataThreshold: Int64
    /// Which redirects an upload follows (307/308 within the same origin, at most 3 hops, by default).
    ///
    /// ```swift
    /// transport.redirects.maximumHops   // 3
    /// ```
    public let redirects: RedirectPolicy

    /// Creates a transport.
    ///
    /// ```swift
    /// let transport = HTTPTransport(url: serverURL, timeout: .seconds(30), dataThreshold: 64 * 1024)
    /// ```
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

    private static let sessionDelegate = HTTPSessionDelegate()

    /// The session every transport uses: an ephemeral configuration **without a URL cache**, whose delegate
    /// never lets URLSession follow a redirect (the transport applies its ``RedirectPolicy`` itself).
    ///
    /// Uploads are never cached, and on Linux a cache is a crash risk: FoundationNetworking looks a new task up in
    /// the session's `URLCache` on a background queue before the task's protocol exists, and a `cancel()` that lands
    /// in that window reports its failure for a task already gone from the session's registry — a `fatalError`
    /// ("Trying to access a behaviour for a task that in not in the registry") that takes the whole process down.
    /// It was seen here when an upload was cancelled right after it started (`URLSession.shared` has a cache);
    /// without a cache the window does not exist.
    ///
    /// ```swift
    /// HTTPTransport.defaultSession.configuration.urlCache   // nil
    /// ```
    public static let defaultSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration, delegate: sessionDelegate, delegateQueue: nil)
    }()

    /// POSTs `request` once.
    ///
    /// ```swift
    /// transport.upload(request).done { receipt in log("batch \(receipt.batchID) \(receipt.disposition)") }
    /// ```
    /// - Parameter request: The upload.
    /// - Returns: The receipt on a 2xx; rejects with ``HTTPUploadError`` or ``UploadError`` (body unreadable,
    ///   length mismatch) otherwise.
    public func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        upload(request, reporter: .unobserved())
    }

    /// POSTs `request` once (again from the body's start for each redirect ``redirects`` follows), reporting to
    /// `reporter`: each send as an attempt, a streamed body's bytes as URLSession reads them (ahead of the wire by
    /// at most libcurl's and the socket's buffers), a `Data` body's bytes all at once when the server answered 2xx.
    ///
    /// ```swift
    /// let upload = transport.observedUpload(request)   // calls this with the handle's reporter
    /// ```
    /// - Parameters:
    ///   - request: The upload.
    ///   - reporter: Where the attempt and its bytes are reported.
    /// - Returns: As ``upload(_:)``.
    public func upload(_ request: UploadRequest, reporter: UploadReporter) -> Promise<UploadReceipt> {
        let (promise, resolver) = Promise<UploadReceipt>.pending()
        send(request, to: url, hopsLeft: redirects.maximumHops, reporter: reporter, resolver: resolver)
        return promise
    }

    /// Sends the whole body to `target`; on a redirect the ``redirects`` policy allows, sends it again, from its
    /// start, to the new location.
    private func send(
        _ request: UploadRequest, to target: URL, hopsLeft: Int, reporter: UploadReporter,
        resolver: Resolver<UploadReceipt>
    ) {
        guard !resolver.isCancelled else { return }
        reporter.attemptStarted(batchID: request.batchID, totalBytes: request.contentLength)
        var urlRequest = URLRequest(url: target)
        urlRequest.httpMethod = "POST"
        // URLSession's own timer is only a backstop, well after the transport's deadline.
        urlRequest.timeoutInterval = Self.timeoutInterval(timeout + .seconds(30))
        urlRequest.setValue(request.contentType, forHTTPHeaderField: "Content-Type")
        urlRequest.setValue(request.idempotencyKey, forHTTPHeaderField: "Idempotency-Key")

        let bodyFailure = BodyFailure()
        let watchdog = Mutex<ExchangeWatchdog?>(nil)
        let handler: HTTPSessionDelegate.Handler = { data, response, error in
            let ended = watchdog.withLock { $0 }
            ended?.stop()
            if let reason = ended?.reason {
                resolver.reject(reason)
                return
            }
            if let failure = bodyFailure.recorded {
                resolver.reject(failure)
                return
            }
            if error == nil, let http = response as? HTTPURLResponse, (300..<400).contains(http.statusCode) {
                let location = Self.header(http, "Location")
                if let next = redirectTarget(
                    status: http.statusCode, location: location, from: target, hopsLeft: hopsLeft)
                {
                    send(request, to: next, hopsLeft: hopsLeft - 1, reporter: reporter, resolver: resolver)
                } else {
                    resolver.reject(HTTPUploadError.redirectRefused(status: http.statusCode, location: location))
                }
                return
            }
            let result = Result {
                try Self.receipt(for: request, url: target, data: data, response: response, error: error)
            }
            if case .success = result { reporter.bodySent() }
            resolver.resolve(result)
        }
        let task: URLSessionTask
        do {
            if request.contentLength <= dataThreshold {
                let data = try request.body.makeData()
                guard Int64(data.count) == request.contentLength else {
                    throw UploadError.lengthMismatch(expected: request.contentLength, actual: Int64(data.count))
                }
                urlRequest.setValue(String(data.count), forHTTPHeaderField: "Content-Length")
                task = Self.defaultSession.uploadTask(with: urlRequest, from: data)
            } else {
                // The server may answer on the head alone (413, 401, …): with `Expect: 100-continue` that answer
                // arrives before any body byte, so a reset of an unread body can never overtake it (libcurl waits
                // 1 s for a server that ignores the header, then sends the body anyway).
                urlRequest.setValue("100-continue", forHTTPHeaderField: "Expect")
                urlRequest.httpBodyStream = CountingInputStream(
                    try request.body.makeInputStream(), reporter: reporter, failure: bodyFailure)
                task = Self.defaultSession.dataTask(with: urlRequest)
            }
        } catch {
            resolver.reject(error)
            return
        }
        Self.sessionDelegate.register(task, handler: handler)
        resolver.onCancel { task.cancel() }
        watchdog.withLock {
            $0 = ExchangeWatchdog(task: task, delegate: Self.sessionDelegate, deadline: timeout, stallLimit: stallLimit)
        }
        task.resume()
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

    /// The `URLRequest.timeoutInterval` for `timeout`. FoundationNetworking arms its timer with
    /// `Int(timeoutInterval) * 1000` milliseconds, so a fraction of a second would be cut (0.7 s became an
    /// immediate −1001 here): on Linux the interval is rounded up to whole seconds, at least 1.
    static func timeoutInterval(_ timeout: Duration) -> TimeInterval {
        let (seconds, attoseconds) = timeout.components
        let interval = max(Double(seconds) + Double(attoseconds) / 1e18, 0.001)
        #if canImport(FoundationNetworking)
            return max(interval.rounded(.up), 1)
        #else
            return interval
        #endif
    }

    /// Maps a completed task to a receipt or a typed error.
    static func receipt(
        for request: UploadRequest, url: URL, data: Data?, response: URLResponse?, error: (any Error)?
    ) throws -> UploadReceipt {
        if let error {
            if let urlError = error as? URLError { throw HTTPUploadError.connection(code: urlError.errorCode) }
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain { throw HTTPUploadError.connection(code: nsError.code) }
            throw error
        }
        guard let http = response as? HTTPURLResponse else { throw HTTPUploadError.invalidResponse }
        guard (200..<300).contains(http.statusCode) else {
            throw HTTPUploadError.http(
                status: http.statusCode, retryAfter: retryAfter(header(http, "Retry-After")),
                message: data.flatMap(message))
        }
        let replayed = header(http, "Idempotent-Replayed")?.lowercased() == "true"
        let disposition: UploadReceipt.Disposition = replayed || isDuplicateJSON(data) ? .duplicate : .stored
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

    static func header(_ response: HTTPURLResponse, _ name: String) -> String? {
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, key.caseInsensitiveCompare(name) == .orderedSame {
                return value as? String
            }
        }
        return nil
    }

    /// At most one short line of a reply's body, for an error message: the first line with text once markup
    /// tags are dropped, whitespace collapsed, terminal escape sequences and control characters removed, and
    /// cut to 120 characters. A whole HTML page never reaches a terminal.
    static func message(_ data: Data) -> String? {
        let text = String(decoding: data.prefix(8_192), as: UTF8.self)
            .replacing(/\x{1B}\[[0-9;?]*[ -\/]*[@-~]/, with: "").replacing(/<[^>]*>/, with: " ")
        for line in text.split(whereSeparator: \.isNewline) {
            let printable = String(
                String.UnicodeScalarView(line.unicodeScalars.filter { $0.properties.generalCategory != .control }))
            let words = printable.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !words.isEmpty else { continue }
            return words.count > 120 ? String(words.prefix(119)) + "…" : words
        }
        return nil
    }

    private static func isDuplicateJSON(_ data: Data?) -> Bool {
        guard let data, !data.isEmpty, data.count < 65_536,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return object["duplicate"] as? Bool == true
    }
}
