/// Waits for every promise to fulfill; fails fast on the first rejection.
///
/// The values keep the input order, whatever order the promises fulfill in. On the first rejection the result
/// rejects with that error and releases the other inputs — each is cancelled unless something else still
/// depends on it — so a failed fan-out stops its remaining work.
///
/// - Parameter promises: The inputs; none gives `[]` at once.
/// - Returns: A promise of all values, in input order.
/// - Complexity: O(n) time and memory; constant stack depth for any n.
@available(
    *, noasync,
    message:
        "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
)
@inlinable
public func when<Value: Sendable>(fulfilled promises: some Sequence<Promise<Value>>) -> Promise<[Value]> {
    let inputs = Array(promises)
    var values = [Value?](repeating: nil, count: inputs.count)
    var pending: [Int] = []
    for (index, input) in inputs.enumerated() {
        switch input.result {
        case .success(let value)?: values[index] = value
        case .failure(let error)?:
            inputs.forEach { if $0.withdrawUnsubscribed() { $0.cancel() } }
            return Promise(error: error)
        case nil: pending.append(index)
        }
    }
    if pending.isEmpty { return Promise(value: values.compactMap { $0 }) }

    let result = Promise<[Value]>()
    result.dependOn(pending.map { inputs[$0] })
    let gather = LockedState((values: values, remaining: pending.count))
    for index in pending {
        inputs[index].subscribe { outcome in
            switch outcome {
            case .success(let value):
                let complete: [Value]? = gather.withLock { state in
                    state.values[index] = value
                    state.remaining -= 1
                    guard state.remaining == 0 else { return nil }
                    return state.values.compactMap { $0 }
                }
                if let complete { Trampoline.run { result.settle(.success(complete)) } }
            case .failure(let error):
                Trampoline.run { result.settle(.failure(error), releasingUpstream: true) }
            }
        }
    }
    return result
}

/// Waits for every promise to settle, fulfilled or rejected, and never rejects itself (unless cancelled).
///
/// - Parameter promises: The inputs; none gives `[]` at once.
/// - Returns: A promise of every result, in input order.
/// - Complexity: O(n) time and memory; constant stack depth for any n.
@available(
    *, noasync,
    message:
        "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
)
@inlinable
public func when<Value: Sendable>(
    resolved promises: some Sequence<Promise<Value>>
) -> Promise<[Result<Value, any Error>]> {
    let inputs = Array(promises)
    var results = [Result<Value, any Error>?](repeating: nil, count: inputs.count)
    var pending: [Int] = []
    for (index, input) in inputs.enumerated() {
        if let settled = input.result { results[index] = settled } else { pending.append(index) }
    }
    if pending.isEmpty { return Promise(value: results.compactMap { $0 }) }

    let result = Promise<[Result<Value, any Error>]>()
    result.dependOn(pending.map { inputs[$0] })
    let gather = LockedState((results: results, remaining: pending.count))
    for index in pending {
        inputs[index].subscribe { outcome in
            let complete: [Result<Value, any Error>]? = gather.withLock { state in
                state.results[index] = outcome
                state.remaining -= 1
                guard state.remaining == 0 else { return nil }
                return state.results.compactMap { $0 }
            }
            if let complete { Trampoline.run { result.settle(.success(complete)) } }
        }
    }
    return result
}

/// Waits for two promises of different types; fails fast like `when(fulfilled:)`.
///
/// - Returns: A promise of both values.
@available(
    *, noasync,
    message:
        "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
)
@inlinable
public func when<A: Sendable, B: Sendable>(
    fulfilled a: Promise<A>, _ b: Promise<B>
) -> Promise<(A, B)> {
    when(fulfilled: [a.asVoid(), b.asVoid()]).map(on: .immediate) { _ in
        (try a.settledValue(), try b.settledValue())
    }
}

/// Waits for three promises of different types; fails fast like `when(fulfilled:)`.
///
/// - Returns: A promise of the three values.
@available(
    *, noasync,
    message:
        "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
)
@inlinable
public func when<A: Sendable, B: Sendable, C: Sendable>(
    fulfilled a: Promise<A>, _ b: Promise<B>, _ c: Promise<C>
) -> Promise<(A, B, C)> {
    when(fulfilled: [a.asVoid(), b.asVoid(), c.asVoid()]).map(on: .immediate) { _ in
        (try a.settledValue(), try b.settledValue(), try c.settledValue())
    }
}

/// Waits for four promises of different types; fails fast like `when(fulfilled:)`.
///
/// - Returns: A promise of the four values.
@available(
    *, noasync,
    message:
        "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
)
@inlinable
public func when<A: Sendable, B: Sendable, C: Sendable, D: Sendable>(
    fulfilled a: Promise<A>, _ b: Promise<B>, _ c: Promise<C>, _ d: Promise<D>
) -> Promise<(A, B, C, D)> {
    when(fulfilled: [a.asVoid(), b.asVoid(), c.asVoid(), d.asVoid()]).map(on: .immediate) { _ in
        (try a.settledValue(), try b.settledValue(), try c.settledValue(), try d.settledValue())
    }
}

extension Promise {
    /// The value of a settled promise (used once `when` knows every input fulfilled).
    @inlinable
    func settledValue() throws -> Value {
        switch result {
        case .success(let value)?: return value
        case .failure(let error)?: throw error
        case nil: throw PromiseError.invalidCallbackResult
        }
    }

    /// Makes this pending promise depend on `inputs` for cancellation, in one step.
    @inlinable
    func dependOn(_ inputs: [any PromiseNode]) {
        _ = withPendingState { $0.upstream = UpstreamList(inputs) }
    }

    /// Counts a combinator that looked at this promise and gave up on it before subscribing, exactly as if it
    /// had subscribed and withdrawn: `true` when no dependent is left and the promise should be cancelled.
    @inlinable
    func withdrawUnsubscribed() -> Bool {
        withPendingState { state in
            state.dependents += 1
            state.withdrawn += 1
            return state.withdrawn >= state.dependents + fastDependents
        } ?? false
    }
}
