import FlowKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The delegate of ``HTTPTransport/defaultSession``: it gathers each task's response body, hands the finished
/// task to the handler registered for it, and **never lets URLSession follow a redirect** — every 3xx completes
/// its task as it is, and ``HTTPTransport`` decides (see ``RedirectPolicy``).
///
/// Why a session delegate: FoundationNetworking follows redirects by itself for tasks with a completion handler
/// (measured: a 307 was re-sent without its body, then stalled until the timeout; a 303 became a GET) and calls
/// no per-task delegate; only a session delegate's `willPerformHTTPRedirection` is asked, for delegate-style tasks.
///
/// - Note: `@unchecked Sendable`: its only state, the table of running tasks, is kept in a `LockedState`.
final class HTTPSessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Called with the response body, the response, the error, and how many body bytes the task handed on
    /// (`countOfBytesSent`: fewer than the body's length when the server answered before it had them all).
    typealias Handler = @Sendable (Data, URLResponse?, (any Error)?, _ bodyBytesSent: Int64) -> Void

    private struct Running {
        var data = Data()
        let handler: Handler
        /// When the exchange last moved: body bytes sent, the response's head or body bytes received.
        var lastProgress = ContinuousClock.now
    }

    private let running = LockedState<[Int: Running]>([:])

    /// Registers `handler` for `task`, called once when the task completes; call before `resume()`.
    func register(_ task: URLSessionTask, handler: @escaping Handler) {
        running.withLock { $0[task.taskIdentifier] = Running(handler: handler) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// When `task`'s exchange last made progress; `nil` once it completed.
    func lastProgress(of task: URLSessionTask) -> ContinuousClock.Instant? {
        running.withLock { $0[task.taskIdentifier]?.lastProgress }
    }

    private func progressed(_ task: URLSessionTask) {
        let now = ContinuousClock.now
        running.withLock { $0[task.taskIdentifier]?.lastProgress = now }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        progressed(task)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        progressed(dataTask)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let now = ContinuousClock.now
        running.withLock { running in
            running[dataTask.taskIdentifier]?.data.append(data)
            running[dataTask.taskIdentifier]?.lastProgress = now
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let finished = running.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        finished.handler(finished.data, task.response, error, task.countOfBytesSent)
    }
}
