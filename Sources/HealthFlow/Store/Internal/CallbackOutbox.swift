import FlowKit
import Foundation

/// Hands callbacks to the store's executor in the order the store produced them, never while a store lock
/// is held.
///
/// The store enqueues jobs while it holds its own lock (so their order is the order of the changes), then
/// calls ``drain()`` after releasing it. One thread drains at a time and submits jobs in FIFO order; a job
/// that calls back into the store (on an `.immediate` executor it runs inside the drain loop) only enqueues,
/// and the loop submits its callbacks next — no deadlock, no recursion, no reordering.
final class CallbackOutbox: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job] = []
        var draining = false
    }

    private let state = LockedState(State())
    let executor: FlowExecutor

    /// An outbox over `executor`, or, when it is `nil`, over a serial queue of the store's own, so that one
    /// store's callbacks never wait behind another's.
    ///
    /// - Parameters:
    ///   - store: The kind of store, for the queue's label (`HealthFlow.<store>.callbacks(<app>)`).
    ///   - app: The bundle identifier of the app the store serves.
    init(executor: FlowExecutor?, store: String, app: String) {
        self.executor = executor ?? .queue(DispatchQueue(label: "HealthFlow.\(store).callbacks(\(app))"))
    }

    /// Queues a job; cheap, so it may be called while holding another lock.
    func enqueue(_ job: @escaping Job) {
        state.withLock { $0.jobs.append(job) }
    }

    /// Runs `body` holding `lock`, with a function that queues callbacks — so they keep the order of the changes
    /// made under the lock — then delivers them once the lock is released.
    func withLock<State, Result: Sendable>(
        _ lock: borrowing LockedState<State>, _ body: (inout State, (@escaping Job) -> Void) -> Result
    ) -> Result {
        let result = lock.withLock { state in body(&state) { job in enqueue(job) } }
        drain()
        return result
    }

    /// Submits every queued job to the executor, unless another thread is already doing so.
    func drain() {
        let claimed = state.withLock { state in
            guard !state.draining, !state.jobs.isEmpty else { return false }
            state.draining = true
            return true
        }
        guard claimed else { return }
        while true {
            let batch = state.withLock { state in
                let batch = state.jobs
                state.jobs = []
                if batch.isEmpty { state.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            for job in batch { executor.execute(job) }
        }
    }
}
