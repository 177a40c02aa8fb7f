import FlowKit
import Foundation
import Synchronization
import Testing

/// A clock that ticks one millisecond per reading: 0 ms, 1 ms, 2 ms… — traces become exact.
func tickingClock() -> GraphClock {
    let ticks = Atomic<Int64>(0)
    return GraphClock { .milliseconds(ticks.add(1, ordering: .relaxed).oldValue) }
}

/// A serial queue: nodes run one at a time, in a deterministic order.
func serialQueue(_ name: String = "serial") -> OperationQueue {
    let queue = OperationQueue()
    queue.name = name
    queue.maxConcurrentOperationCount = 1
    return queue
}

/// A block operation that appends `value` to `recorder`.
func recording(_ value: Int, into recorder: Recorder<Int>) -> BlockOperation {
    let operation = BlockOperation { recorder.append(value) }
    operation.name = "\(value)"
    return operation
}

/// Counts how many nodes run at once, and holds each running node until `limit` are running (or every node has
/// started), then releases the oldest — so a correct limit is reached exactly and never exceeded, with no sleep.
final class ConcurrencyGate: Sendable {
    private struct State {
        var running = 0
        var maximum = 0
        var started = 0
        var held: [Resolver<Void>] = []
    }

    private let state = LockedState(State())
    private let limit: Int
    private let total: Int

    init(limit: Int, total: Int) {
        self.limit = limit
        self.total = total
    }

    var maximum: Int { state.withLock { $0.maximum } }

    /// The work of one node: a promise that the gate fulfills when it is this node's turn to finish.
    func enter() -> Promise<Void> {
        let (promise, resolver) = Promise<Void>.pending()
        let release: [Resolver<Void>] = state.withLock { state in
            state.running += 1
            state.started += 1
            state.maximum = max(state.maximum, state.running)
            state.held.append(resolver)
            if state.started == total {
                let all = state.held
                state.running -= all.count
                state.held = []
                return all
            }
            if state.running >= limit {
                state.running -= 1
                return [state.held.removeFirst()]
            }
            return []
        }
        for resolver in release { resolver.fulfill() }
        return promise
    }
}
