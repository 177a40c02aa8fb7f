// The async twins of the combinators that take promises. Each awaits the promise form, which the synchronous
// closure of `firstly` may call (the promise forms are unavailable in asynchronous code). Cancelling the
// awaiting task cancels the combined promise, and with it every input nothing else depends on.

/// The async twin of `when(fulfilled:)` over promises: every value, in input order; the first rejection is
/// thrown and the other inputs are released (cancelled unless something else depends on them).
///
/// - Parameter promises: The inputs; none returns `[]`.
/// - Returns: Every value, in input order.
/// - Throws: The first rejection's error, or `CancellationError` when the awaiting task is cancelled.
public func when<Value: Sendable>(fulfilled promises: some Sequence<Promise<Value>>) async throws -> [Value] {
    try await firstly { when(fulfilled: promises) }.value
}

/// The async twin of `when(resolved:)` over promises: every outcome, in input order.
///
/// - Parameter promises: The inputs; none returns `[]`.
/// - Returns: Every result, in input order.
/// - Throws: Only `CancellationError`, when the awaiting task is cancelled (the inputs are released then).
public func when<Value: Sendable>(
    resolved promises: some Sequence<Promise<Value>>
) async throws -> [Result<Value, any Error>] {
    try await firstly { when(resolved: promises) }.value
}

/// The async twin of `when(fulfilled:_:)` over two promises of different types.
///
/// - Returns: Both values.
/// - Throws: The first rejection's error, or `CancellationError` when the awaiting task is cancelled.
public func when<A: Sendable, B: Sendable>(fulfilled a: Promise<A>, _ b: Promise<B>) async throws -> (A, B) {
    try await firstly { when(fulfilled: a, b) }.value
}

/// The async twin of `when(fulfilled:_:_:)` over three promises of different types.
///
/// - Returns: The three values.
/// - Throws: The first rejection's error, or `CancellationError` when the awaiting task is cancelled.
public func when<A: Sendable, B: Sendable, C: Sendable>(
    fulfilled a: Promise<A>, _ b: Promise<B>, _ c: Promise<C>
) async throws -> (A, B, C) {
    try await firstly { when(fulfilled: a, b, c) }.value
}

/// The async twin of `when(fulfilled:_:_:_:)` over four promises of different types.
///
/// - Returns: The four values.
/// - Throws: The first rejection's error, or `CancellationError` when the awaiting task is cancelled.
public func when<A: Sendable, B: Sendable, C: Sendable, D: Sendable>(
    fulfilled a: Promise<A>, _ b: Promise<B>, _ c: Promise<C>, _ d: Promise<D>
) async throws -> (A, B, C, D) {
    try await firstly { when(fulfilled: a, b, c, d) }.value
}

/// The async twin of `race(_:)` over promises: the first input to settle wins, value or error; the others
/// are released.
///
/// - Parameter promises: The contestants.
/// - Returns: The winner's value.
/// - Throws: The winner's error, ``PromiseError/emptyInput(operation:)`` for no inputs, or `CancellationError`.
public func race<Value: Sendable>(_ promises: some Sequence<Promise<Value>>) async throws -> Value {
    try await firstly { race(promises) }.value
}

/// The async twin of `race(_:_:)`.
///
/// - Returns: The winner's value.
/// - Throws: The winner's error, or `CancellationError`.
public func race<Value: Sendable>(_ first: Promise<Value>, _ others: Promise<Value>...) async throws -> Value {
    try await firstly { race([first] + others) }.value
}

/// The async twin of `any(_:)` over promises: the first value; the others are released once one fulfills.
///
/// - Parameter promises: The candidates.
/// - Returns: The first value.
/// - Throws: ``PromiseError/allFailed(_:)`` (errors in input order) when every input rejected,
///   ``PromiseError/emptyInput(operation:)``, or `CancellationError`.
public func any<Value: Sendable>(_ promises: some Sequence<Promise<Value>>) async throws -> Value {
    try await firstly { any(promises) }.value
}
