/// Settles like the first input to settle, fulfilled or rejected; the losers are released (and cancelled
/// unless something else depends on them).
///
/// - Parameter promises: The inputs; none rejects with ``PromiseError/emptyInput(operation:)``.
/// - Returns: A promise settled like the winner.
/// - Complexity: O(n).
@available(
    *, noasync,
    message:
        "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
)
public func race<Value: Sendable>(_ promises: some Sequence<Promise<Value>>) -> Promise<Value> {
    firstOf(promises, operation: "race") { result, inputs in
        for input in inputs {
            input.subscribe { outcome in
                Trampoline.run { result.settle(outcome, releasingUpstream: true) }
            }
        }
    }
}

/// `race(_:)` for a handful of promises.
///
/// - Returns: A promise settled like the winner.
@available(
    *, noasync,
    message:
        "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
)
public func race<Value: Sendable>(_ first: Promise<Value>, _ others: Promise<Value>...) -> Promise<Value> {
    race([first] + others)
}

/// Fulfills with the first input to fulfill; rejects only when every input rejected, with
/// ``PromiseError/allFailed(_:)`` listing their errors in input order. The other inputs are released once
/// one fulfills.
///
/// - Parameter promises: The inputs; none rejects with ``PromiseError/emptyInput(operation:)``.
/// - Returns: A promise of the first value.
/// - Complexity: O(n).
@available(
    *, noasync,
    message:
        "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
)
public func any<Value: Sendable>(_ promises: some Sequence<Promise<Value>>) -> Promise<Value> {
    firstOf(promises, operation: "any") { result, inputs in
        let failures = LockedState(
            (errors: [(any Error)?](repeating: nil, count: inputs.count), remaining: inputs.count))
        for (index, input) in inputs.enumerated() {
            input.subscribe { outcome in
                switch outcome {
                case .success:
                    Trampoline.run { result.settle(outcome, releasingUpstream: true) }
                case .failure(let error):
                    let all: [any Error]? = failures.withLock { state in
                        state.errors[index] = error
                        state.remaining -= 1
                        return state.remaining == 0 ? state.errors.compactMap { $0 } : nil
                    }
                    if let all { Trampoline.run { result.settle(.failure(PromiseError.allFailed(all))) } }
                }
            }
        }
    }
}

/// The promise of a first-wins combinator: pending and depending on every input (so cancelling it releases them),
/// with `subscribe` given it and the inputs to settle it; no inputs rejects with
/// ``PromiseError/emptyInput(operation:)`` naming `operation`.
private func firstOf<Value: Sendable>(
    _ promises: some Sequence<Promise<Value>>, operation: String,
    subscribe: (_ result: Promise<Value>, _ inputs: [Promise<Value>]) -> Void
) -> Promise<Value> {
    let inputs = Array(promises)
    guard !inputs.isEmpty else { return Promise(error: PromiseError.emptyInput(operation: operation)) }
    let result = Promise<Value>()
    result.dependOn(inputs)
    subscribe(result, inputs)
    return result
}
