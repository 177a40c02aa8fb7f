import Dispatch
import Foundation

/// Where a continuation runs: a `DispatchQueue`, an `OperationQueue`, the main queue, inline, or your own.
///
/// Every `then`, `map`, `catch`… takes an optional `on:` executor. When you pass none, the continuation runs
/// on ``FlowDefaults/executor``, which starts as ``flowDefault``: a private serial queue that needs no run
/// loop, so a Linux command-line program never hangs waiting for a main queue that nobody drains.
///
/// Continuations attached to one promise are submitted in the order they were attached, so on a serial
/// executor they also run in that order.
public struct FlowExecutor: Sendable {
    /// One word: every payload is a single reference (a custom submit function is boxed), so an executor
    /// copies with one retain and a chain link that keeps one stays small.
    @usableFromInline
    enum Kind: Sendable {
        case immediate
        case dispatch(DispatchQueue)
        case operation(OperationQueue)
        case custom(CustomSubmit)
    }

    /// A custom executor's submit function, boxed so that ``Kind`` stays one word.
    @usableFromInline
    final class CustomSubmit: Sendable {
        @usableFromInline
        let submit: @Sendable (@escaping @Sendable () -> Void) -> Void

        @usableFromInline
        init(_ submit: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
            self.submit = submit
        }
    }

    @usableFromInline
    let kind: Kind

    @usableFromInline
    init(kind: Kind) {
        self.kind = kind
    }

    /// Runs the continuation on the thread that settles the promise (or attaches to a settled one).
    ///
    /// Jobs submitted while another immediate job is running on the same thread are queued behind it rather
    /// than nested, so chains of any length never deepen the stack. Use it for cheap, non-blocking steps and in
    /// tests; never block inside an immediate continuation.
    public static let immediate = FlowExecutor(kind: .immediate)

    /// Runs continuations on the main dispatch queue (Apple apps' UI thread).
    ///
    /// - Note: A Linux command-line program must call `dispatchMain()` (or run the main run loop) for this
    ///   queue to drain; the default executor does not depend on it.
    public static let main = FlowExecutor(kind: .dispatch(.main))

    /// The library's default: one private serial queue, `FlowKit.default`, that needs no run loop.
    public static let flowDefault = FlowExecutor(kind: .dispatch(DispatchQueue(label: "FlowKit.default")))

    /// Runs continuations with `queue.async`.
    ///
    /// - Parameter queue: The dispatch queue, serial or concurrent.
    /// - Returns: An executor submitting to `queue`.
    public static func queue(_ queue: DispatchQueue) -> FlowExecutor {
        FlowExecutor(kind: .dispatch(queue))
    }

    /// Runs continuations as block operations on an `OperationQueue` (honouring its concurrency limit).
    ///
    /// - Parameter queue: The operation queue.
    /// - Returns: An executor submitting to `queue`.
    public static func operationQueue(_ queue: OperationQueue) -> FlowExecutor {
        FlowExecutor(kind: .operation(queue))
    }

    /// An executor of your own: `submit` receives each job and must run it exactly once, eventually.
    ///
    /// - Parameter submit: Called once per continuation with the job to run.
    /// - Returns: An executor that hands jobs to `submit`.
    public static func custom(_ submit: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) -> FlowExecutor {
        FlowExecutor(kind: .custom(CustomSubmit(submit)))
    }

    /// Submits `job` to this executor.
    ///
    /// - Parameter job: The work to run once.
    @inlinable
    public func execute(_ job: @escaping @Sendable () -> Void) {
        switch kind {
        case .immediate:
            Trampoline.run(job)
        case .dispatch(let queue):
            queue.async(execute: job)
        case .operation(let queue):
            queue.addOperation(job)
        case .custom(let custom):
            custom.submit(job)
        }
    }
}

extension FlowExecutor: CustomStringConvertible {
    /// A short name for traces and logs, such as `queue(FlowKit.default)` or `immediate`.
    public var description: String {
        switch kind {
        case .immediate: "immediate"
        case .dispatch(let queue): "queue(\(queue.label))"
        case .operation(let queue): "operationQueue(\(queue.name ?? "unnamed"))"
        case .custom: "custom"
        }
    }
}
