import FlowKit
import Testing

/// What the documentation's examples print: this module's `print` records each line here instead of writing it to
/// standard output, so that a test can check the output an article shows.
///
/// The record is shared by the whole module; the suites that print are nested in ``DocExamples``, which runs them
/// one at a time.
enum Printed {
    private struct State {
        var lines: [String] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private static let state = LockedState(State())

    /// Forgets every recorded line; call it first in each test that reads ``lines(count:)``.
    static func reset() {
        state.withLock { $0.lines = [] }
    }

    static func append(_ line: String) {
        let ready = state.withLock { state in
            state.lines.append(line)
            let ready = state.waiters.filter { $0.count <= state.lines.count }
            state.waiters.removeAll { $0.count <= state.lines.count }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// The lines printed so far, once there are at least `count` of them (continuations print on other threads).
    static func lines(count: Int) async -> [String] {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.lines.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
        return state.withLock { $0.lines }
    }
}

/// Records a printed line in ``Printed`` (shadows the standard library's `print` in this module).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Printed.append(items.map { "\($0)" }.joined(separator: separator))
}

/// The examples that print, run one at a time so that each reads only its own lines.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DocExamples {}
