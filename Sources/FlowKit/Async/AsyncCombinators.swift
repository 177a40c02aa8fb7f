/// The async twin of `when(fulfilled:)`: runs every operation concurrently in a task group and
/// returns their values in input order; the first error cancels the others and is thrown.
///
/// - Parameter operations: The work; none returns `[]`.
/// - Returns: Every value, in input order.
/// - Throws: The first error thrown, or `CancellationError`.
public func when<Value: Sendable>(
    fulfilled operations: [@Sendable () async throws -> Value]
) async throws -> [Value] {
    try await withThrowingTaskGroup(of: (Int, Value).self) { group in
        for (index, operation) in operations.enumerated() {
            group.addTask { (index, try await operation()) }
        }
        var values = [Value?](repeating: nil, count: operations.count)
        for try await (index, value) in group {
            values[index] = value
        }
        return values.compactMap { $0 }
    }
}

/// The async twin of `when(resolved:)`: runs every operation concurrently and returns every outcome in
/// input order, never throwing for their failures.
///
/// - Parameter operations: The work.
/// - Returns: Every result, in input order.
public func when<Value: Sendable>(
    resolved operations: [@Sendable () async throws -> Value]
) async -> [Result<Value, any Error>] {
    await withTaskGroup(of: (Int, Result<Value, any Error>).self) { group in
        for (index, operation) in operations.enumerated() {
            group.addTask {
                do { return (index, .success(try await operation())) } catch { return (index, .failure(error)) }
            }
        }
        var results = [Result<Value, any Error>?](repeating: nil, count: operations.count)
        for await (index, result) in group {
            results[index] = result
        }
        return results.compactMap { $0 }
    }
}

/// The async twin of `when(fulfilled:_:)`: two operations of different types, concurrently, failing fast.
///
/// - Returns: Both values.
/// - Throws: The first error thrown; the other operation is cancelled.
public func when<A: Sendable, B: Sendable>(
    fulfilled a: @escaping @Sendable () async throws -> A,
    _ b: @escaping @Sendable () async throws -> B
) async throws -> (A, B) {
    let operations: [@Sendable () async throws -> any Sendable] = [{ try await a() }, { try await b() }]
    let values = try await when(fulfilled: operations)
    return (try cast(values[0]), try cast(values[1]))
}

/// The async twin of `when(fulfilled:_:_:)`: three operations of different types, concurrently.
///
/// - Returns: The three values.
/// - Throws: The first error thrown; the others are cancelled.
public func when<A: Sendable, B: Sendable, C: Sendable>(
    fulfilled a: @escaping @Sendable () async throws -> A,
    _ b: @escaping @Sendable () async throws -> B,
    _ c: @escaping @Sendable () async throws -> C
) async throws -> (A, B, C) {
    let operations: [@Sendable () async throws -> any Sendable] = [
        { try await a() }, { try await b() }, { try await c() },
    ]
    let values = try await when(fulfilled: operations)
    return (try cast(values[0]), try cast(values[1]), try cast(values[2]))
}

/// The async twin of `when(fulfilled:_:_:_:)`: four operations of different types, concurrently.
///
/// - Returns: The four values.
/// - Throws: The first error thrown; the others are cancelled.
public func when<A: Sendable, B: Sendable, C: Sendable, D: Sendable>(
    fulfilled a: @escaping @Sendable () async throws -> A,
    _ b: @escaping @Sendable () async throws -> B,
    _ c: @escaping @Sendable () async throws -> C,
    _ d: @escaping @Sendable () async throws -> D
) async throws -> (A, B, C, D) {
    let operations: [@Sendable () async throws -> any Sendable] = [
        { try await a() }, { try await b() }, { try await c() }, { try await d() },
    ]
    let values = try await when(fulfilled: operations)
    return (try cast(values[0]), try cast(values[1]), try cast(values[2]), try cast(values[3]))
}

/// Recovers a value's static type after it travelled through a homogeneous `[any Sendable]`.
private func cast<T>(_ value: any Sendable) throws -> T {
    guard let typed = value as? T else { throw PromiseError.invalidCallbackResult }
    return typed
}

/// The async twin of `race(_:)`: the first operation to finish wins (value or error); the others
/// are cancelled.
///
/// - Parameter operations: The contestants.
/// - Returns: The winner's value.
/// - Throws: The winner's error, or ``PromiseError/emptyInput(operation:)`` for no operations.
public func race<Value: Sendable>(_ operations: [@Sendable () async throws -> Value]) async throws -> Value {
    guard !operations.isEmpty else { throw PromiseError.emptyInput(operation: "race") }
    return try await withThrowingTaskGroup(of: Value.self) { group in
        for operation in operations {
            group.addTask { try await operation() }
        }
        defer { group.cancelAll() }
        guard let winner = try await group.next() else { throw PromiseError.emptyInput(operation: "race") }
        return winner
    }
}

/// The async twin of `any(_:)`: the first operation to succeed wins and the others are cancelled; throws
/// ``PromiseError/allFailed(_:)`` (errors in input order) only when every operation failed.
///
/// - Parameter operations: The candidates.
/// - Returns: The first value.
/// - Throws: ``PromiseError/allFailed(_:)`` or ``PromiseError/emptyInput(operation:)``.
public func any<Value: Sendable>(_ operations: [@Sendable () async throws -> Value]) async throws -> Value {
    guard !operations.isEmpty else { throw PromiseError.emptyInput(operation: "any") }
    let outcome = await withTaskGroup(of: (Int, Result<Value, any Error>).self) { group in
        for (index, operation) in operations.enumerated() {
            group.addTask {
                do { return (index, .success(try await operation())) } catch { return (index, .failure(error)) }
            }
        }
        var errors = [(any Error)?](repeating: nil, count: operations.count)
        for await (index, result) in group {
            switch result {
            case .success(let value):
                group.cancelAll()
                return Result<Value, any Error>.success(value)
            case .failure(let error):
                errors[index] = error
            }
        }
        return .failure(PromiseError.allFailed(errors.compactMap { $0 }))
    }
    return try outcome.get()
}

/// The async twin of `Promise/timeout(_:on:)`: runs `operation`, throwing ``PromiseError/timedOut(after:)``
/// and cancelling it if it has not finished within `duration` on `scheduler`'s clock.
///
/// - Parameters:
///   - duration: The time allowed.
///   - scheduler: The clock; ``FlowDefaults/scheduler`` when `nil`.
///   - operation: The work.
/// - Returns: The operation's value.
/// - Throws: The operation's error, ``PromiseError/timedOut(after:)``, or `CancellationError`.
public func timeout<Value: Sendable>(
    _ duration: Duration,
    on scheduler: (any FlowScheduler)? = nil,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let clock = scheduler ?? FlowDefaults.scheduler
    return try await withThrowingTaskGroup(of: TimeoutOutcome<Value>.self) { group in
        group.addTask { .finished(try await operation()) }
        group.addTask {
            try await clock.sleep(for: duration)
            return .timedOut
        }
        defer { group.cancelAll() }
        switch try await group.next() {
        case .finished(let value)?: return value
        case .timedOut?, nil: throw PromiseError.timedOut(after: duration)
        }
    }
}

private enum TimeoutOutcome<Value: Sendable>: Sendable {
    case finished(Value)
    case timedOut
}

/// The async twin of `retry(attempts:backoff:jitterSource:on:_:while:)`: runs `operation` until it succeeds,
/// at most `attempts` times, sleeping on `scheduler` between attempts.
///
/// - Parameters:
///   - attempts: The most attempts, the first included (at least 1).
///   - backoff: The waits between attempts.
///   - jitterSource: The random numbers for the jitter.
///   - scheduler: The clock; ``FlowDefaults/scheduler`` when `nil`.
///   - operation: One attempt.
///   - shouldRetry: Decides after each failure; by default every error but cancellation is retried.
/// - Returns: The first successful attempt's value.
/// - Throws: The last error, ``PromiseError/invalidAttemptCount(_:)``, or `CancellationError`.
public func retry<Value: Sendable>(
    attempts: Int,
    backoff: Backoff = .exponential(),
    jitterSource: JitterSource = .system,
    on scheduler: (any FlowScheduler)? = nil,
    _ operation: @escaping @Sendable () async throws -> Value,
    while shouldRetry: @escaping @Sendable (_ error: any Error, _ attempt: Int) -> RetryDecision =
        RetryDecision.unlessCancelled
) async throws -> Value {
    guard attempts >= 1 else { throw PromiseError.invalidAttemptCount(attempts) }
    let plan = RetryPlan(attempts: attempts, backoff: backoff, jitterSource: jitterSource, shouldRetry: shouldRetry)
    let clock = scheduler ?? FlowDefaults.scheduler
    var attempt = 1
    while true {
        do {
            return try await operation()
        } catch {
            try Task.checkCancellation()
            guard let wait = plan.waitBeforeRetry(after: error, attempt: attempt) else { throw error }
            if wait > .zero { try await clock.sleep(for: wait) }
            attempt += 1
        }
    }
}

/// The async twin of the yes/no `retry(attempts:backoff:jitterSource:on:_:while:)`.
///
/// - Parameters:
///   - attempts: The most attempts, the first included (at least 1).
///   - backoff: The waits between attempts.
///   - jitterSource: The random numbers for the jitter.
///   - scheduler: The clock; ``FlowDefaults/scheduler`` when `nil`.
///   - operation: One attempt.
///   - shouldRetry: Whether to retry after this error (cancellation is never retried).
/// - Returns: The first successful attempt's value.
/// - Throws: The last error, or `CancellationError`.
public func retry<Value: Sendable>(
    attempts: Int,
    backoff: Backoff = .exponential(),
    jitterSource: JitterSource = .system,
    on scheduler: (any FlowScheduler)? = nil,
    _ operation: @escaping @Sendable () async throws -> Value,
    while shouldRetry: @escaping @Sendable (_ error: any Error) -> Bool
) async throws -> Value {
    try await retry(
        attempts: attempts, backoff: backoff, jitterSource: jitterSource, on: scheduler, operation,
        while: RetryDecision.when(shouldRetry))
}

/// The async twin of `after(_:on:)`: suspends for `delay` on `scheduler`'s clock.
///
/// - Parameters:
///   - delay: How long to wait.
///   - scheduler: The clock; ``FlowDefaults/scheduler`` when `nil`.
/// - Throws: `CancellationError` if the task is cancelled first.
public func after(_ delay: Duration, on scheduler: (any FlowScheduler)? = nil) async throws {
    try await (scheduler ?? FlowDefaults.scheduler).sleep(for: delay)
}

/// `retry` called with `try await` on a body that returns a promise: retries the promises and returns the
/// value. (Without this overload, an async context would pick the async twin and treat the promise itself as
/// the result, never retrying.)
///
/// - Parameters:
///   - attempts: The most attempts, the first included (at least 1).
///   - backoff: The waits between attempts.
///   - jitterSource: The random numbers for the jitter.
///   - scheduler: The clock; ``FlowDefaults/scheduler`` when `nil`.
///   - body: Starts one attempt.
///   - shouldRetry: Decides after each failure; by default every error but cancellation is retried.
/// - Returns: The first fulfilled attempt's value.
/// - Throws: The last error, ``PromiseError/invalidAttemptCount(_:)``, or `CancellationError`.
public func retry<Value: Sendable>(
    attempts: Int,
    backoff: Backoff = .exponential(),
    jitterSource: JitterSource = .system,
    on scheduler: (any FlowScheduler)? = nil,
    _ body: @escaping @Sendable () throws -> Promise<Value>,
    while shouldRetry: @escaping @Sendable (_ error: any Error, _ attempt: Int) -> RetryDecision =
        RetryDecision.unlessCancelled
) async throws -> Value {
    try await retryPromise(
        attempts: attempts, backoff: backoff, jitterSource: jitterSource, scheduler: scheduler, body: body,
        shouldRetry: shouldRetry
    ).value
}

/// `timeout` called with `try await` on a body that returns a promise: applies the time limit to that promise
/// and returns its value. (Without this overload, an async context would pick the async twin and time only the
/// creation of the promise.)
///
/// - Parameters:
///   - duration: The time allowed.
///   - scheduler: The clock; ``FlowDefaults/scheduler`` when `nil`.
///   - body: Starts the work.
/// - Returns: The promise's value.
/// - Throws: The promise's error, ``PromiseError/timedOut(after:)``, or `CancellationError`.
public func timeout<Value: Sendable>(
    _ duration: Duration,
    on scheduler: (any FlowScheduler)? = nil,
    _ body: @escaping @Sendable () throws -> Promise<Value>
) async throws -> Value {
    try await firstly(body).timeout(duration, on: scheduler).value
}
