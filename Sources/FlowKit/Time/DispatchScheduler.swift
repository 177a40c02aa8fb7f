import Dispatch

/// The production ``FlowScheduler``: `asyncAfter` on a dispatch queue, measured on the monotonic uptime clock.
public struct DispatchScheduler: FlowScheduler {
    /// The queue the scheduled jobs run on.
    public let queue: DispatchQueue

    /// A scheduler running its jobs on `queue`.
    ///
    /// - Parameter queue: Where scheduled jobs run; the global concurrent queue by default.
    public init(queue: DispatchQueue = .global()) {
        self.queue = queue
    }

    /// The time since boot on the monotonic uptime clock.
    public var now: Duration {
        .nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds))
    }

    /// Runs `work` on ``queue`` after `delay`, unless cancelled first.
    ///
    /// - Parameters:
    ///   - delay: How long to wait; zero or negative runs as soon as possible.
    ///   - work: The job.
    /// - Returns: A handle that cancels the job.
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> ScheduledWork {
        let item = DispatchWorkItem(block: work)
        queue.asyncAfter(deadline: .now() + delay.dispatchInterval, execute: item)
        let cancellable = UncheckedWorkItem(item: item)
        return ScheduledWork { cancellable.item.cancel() }
    }
}

/// `DispatchWorkItem` is documented thread-safe (its `cancel()` may be called from any thread) but is not
/// annotated `Sendable` in swift-corelibs-libdispatch; this wrapper states that fact for the compiler.
private struct UncheckedWorkItem: @unchecked Sendable {
    let item: DispatchWorkItem
}

extension Duration {
    /// The duration as a dispatch interval in whole nanoseconds, clamped to `0...Int.max`.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return .nanoseconds(Int.max) }
        let total = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return .nanoseconds(total.overflow ? Int.max : Int(clamping: total.partialValue))
    }
}
