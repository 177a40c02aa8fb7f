import FlowKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport``'s URLSession client: every exchange on Apple platforms, and `https://` on Linux.
extension HTTPTransport {
    static let sessionDelegate = HTTPSessionDelegate()

    /// The session every transport uses: an ephemeral configuration **without a URL cache**, whose delegate
    /// never lets URLSession follow a redirect (the transport applies its ``RedirectPolicy`` itself).
    ///
    /// Uploads are never cached, and on Linux a cache is a crash risk: FoundationNetworking looks a new task up in
    /// the session's `URLCache` on a background queue before the task's protocol exists, and a `cancel()` that lands
    /// in that window reports its failure for a task already gone from the session's registry — a `fatalError`
    /// ("Trying to access a behaviour for a task that in not in the registry") that takes the whole process down.
    /// It was seen here when an upload was cancelled right after it started (`URLSession.shared` has a cache);
    /// without a cache the window does not exist.
    public static let defaultSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration, delegate: sessionDelegate, delegateQueue: nil)
    }()

    /// Sends the whole body to `target` once with ``defaultSession`` and hands the final answer or the error to
    /// `finish`: a whole body as `Data` with a `Content-Length`, a streamed one as a fresh `httpBodyStream` with
    /// `Expect: 100-continue` (chunked, no `Content-Length`), guarded by an ``ExchangeWatchdog``. A 2xx that came
    /// before the task handed on the whole body (its `countOfBytesSent` short of the body's length) is
    /// ``HTTPUploadError/answeredBeforeBodySent(status:)``, as on the socket client; any other status is the
    /// answer.
    func sendWithURLSession(
        _ request: UploadRequest, to target: URL, reporter: UploadReporter, resolver: Resolver<UploadReceipt>,
        finish: @escaping @Sendable (Result<HTTPReply, any Error>) -> Void
    ) {
        var urlRequest = URLRequest(url: target)
        urlRequest.httpMethod = "POST"
        // URLSession's own timer is only a backstop, well after the transport's deadline.
        urlRequest.timeoutInterval = Self.timeoutInterval(timeout + .seconds(30))
        urlRequest.setValue(request.contentType, forHTTPHeaderField: "Content-Type")
        urlRequest.setValue(request.idempotencyKey, forHTTPHeaderField: "Idempotency-Key")

        let bodyFailure = BodyFailure()
        let watchdog = LockedState<ExchangeWatchdog?>(nil)
        let handler: HTTPSessionDelegate.Handler = { data, response, error, bodyBytesSent in
            let ended = watchdog.withLock { $0 }
            ended?.stop()
            finish(
                Result {
                    if let reason = ended?.reason { throw reason }
                    if let failure = bodyFailure.recorded { throw failure }
                    return try Self.reply(data: data, response: response, error: error)
                        .outcome(wholeRequestSent: bodyBytesSent >= request.contentLength)
                })
        }
        let task: URLSessionTask
        do {
            if !streams(request) {
                let data = try Self.wholeBody(of: request)
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

    /// What a completed task amounts to: its final answer, or its error as ``HTTPUploadError/connection(code:)``
    /// when it is a `URLError` (other errors pass through).
    /// - Throws: The mapped error; ``HTTPUploadError/invalidResponse`` when the answer is not HTTP.
    static func reply(data: Data, response: URLResponse?, error: (any Error)?) throws -> HTTPReply {
        if let error {
            if let urlError = error as? URLError { throw HTTPUploadError.connection(code: urlError.errorCode) }
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain { throw HTTPUploadError.connection(code: nsError.code) }
            throw error
        }
        guard let http = response as? HTTPURLResponse else { throw HTTPUploadError.invalidResponse }
        let headers = http.allHeaderFields.compactMap { key, value -> (name: String, value: String)? in
            guard let name = key as? String, let value = value as? String else { return nil }
            return (name, value)
        }
        return HTTPReply(status: http.statusCode, headers: headers, body: data)
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
}
