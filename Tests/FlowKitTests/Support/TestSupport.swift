import FlowKit
import Foundation
import Synchronization
import TestScale
import Testing

/// Errors the tests throw on purpose.
enum TestError: Error, Equatable {
    case boom
    case numbered(Int)
}

/// A thread-safe list of events, to assert order and count.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = LockedState<[Element]>([])

    func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    var events: [Element] {
        storage.withLock { $0 }
    }

    var count: Int {
        storage.withLock { $0.count }
    }

    /// The elements so far, leaving the recorder empty (recorded jobs that hold their executor, which holds
    /// this recorder, are let go).
    func take() -> [Element] {
        storage.withLock { elements in
            defer { elements = [] }
            return elements
        }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    @discardableResult
    func increment() -> Int {
        value.add(1, ordering: .relaxed).newValue
    }

    func decrement() {
        value.subtract(1, ordering: .relaxed)
    }

    var current: Int {
        value.load(ordering: .relaxed)
    }
}

/// An object whose lifetime the leak tests watch through weak references.
final class Tracked: Sendable {}

/// Awaits a promise and returns its error, failing the test if it fulfilled.
func rejection<Value: Sendable>(
    of promise: Promise<Value>, sourceLocation: SourceLocation = #_sourceLocation
) async -> (any Error)? {
    switch await promise.settled {
    case .success(let value):
        Issue.record("expected a rejection, got \(value)", sourceLocation: sourceLocation)
        return nil
    case .failure(let error):
        return error
    }
}

/// Reads a settled promise's result synchronously (for `.immediate` tests, where everything has already run).
func settledResult<Value: Sendable>(_ promise: Promise<Value>) -> Result<Value, any Error>? {
    promise.result
}

/// Test scale for the million-element stress tests: one million, scaled by ``TestScale``.
let stressCount = TestScale.count(1_000_000)
