import Dispatch
import FlowKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Ends one HTTP exchange that takes too long: past its whole-exchange deadline, or when it made no progress
/// (body bytes sent, response bytes received) for the stall limit. It cancels the task and keeps why, so the
/// transport reports ``HTTPUploadError/timedOut(after:)`` or ``HTTPUploadError/stalled(for:)`` instead of a
/// cancellation. It checks a few times a second at most; both limits are met to within one check.
///
/// - Note: `@unchecked Sendable`: the timer is set up in `init` and afterwards only cancelled (DispatchSource is
///   thread-safe; `cancel()` may be called from any thread, more than once), and the
///   verdict is kept in a `LockedState`.
final class ExchangeWatchdog: @unchecked Sendable {
    private let timer: any DispatchSourceTimer
    private let verdict = LockedState<HTTPUploadError?>(nil)

    /// Starts watching `task`; call ``stop()`` when it completed.
    init(task: URLSessionTask, delegate: HTTPSessionDelegate, deadline: Duration, stallLimit: Duration) {
        let start = ContinuousClock.now
        let period = min(max(min(deadline, stallLimit) / 4, .milliseconds(50)), .seconds(1))
        let nanoseconds =
            Int(period.components.seconds) * 1_000_000_000
            + Int(period.components.attoseconds / 1_000_000_000)
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        timer.setEventHandler { [weak self] in
            let now = ContinuousClock.now
            if now - start >= deadline {
                self?.end(task, because: .timedOut(after: deadline))
            } else if let last = delegate.lastProgress(of: task), now - last >= stallLimit {
                self?.end(task, because: .stalled(for: stallLimit))
            }
        }
        timer.resume()
    }

    private func end(_ task: URLSessionTask, because reason: HTTPUploadError) {
        verdict.withLock { if $0 == nil { $0 = reason } }
        timer.cancel()
        task.cancel()
    }

    /// Why the watchdog ended the exchange, if it did.
    var reason: HTTPUploadError? { verdict.withLock { $0 } }

    /// Stops watching.
    func stop() {
        timer.cancel()
    }
}
