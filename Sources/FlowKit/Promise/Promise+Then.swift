extension Promise {
    /// Continues with another asynchronous step once this promise fulfills (a flat-map).
    ///
    /// - Parameters:
    ///   - executor: Where `body` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - body: Receives the value and returns the next promise; a thrown error rejects the result.
    /// - Returns: A promise settled like the one `body` returns; rejected at once if this one rejects.
    /// - Note: `body` must be `@Sendable`: it runs on `executor`, not where you attached it.
    @inlinable
    public func then<U: Sendable>(
        on executor: FlowExecutor? = nil,
        _ body: @escaping @Sendable (Value) throws -> Promise<U>
    ) -> Promise<U> {
        chain(on: executor, handles: .success, .then(body))
    }

    /// Transforms the value with a synchronous function.
    ///
    /// - Parameters:
    ///   - executor: Where `transform` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - transform: Receives the value; a thrown error rejects the result.
    /// - Returns: A promise of the transformed value.
    @inlinable
    public func map<U: Sendable>(
        on executor: FlowExecutor? = nil,
        _ transform: @escaping @Sendable (Value) throws -> U
    ) -> Promise<U> {
        chain(on: executor, handles: .success, .map(transform))
    }

    /// Consumes the value at the end of a chain.
    ///
    /// The result is not discardable: a chain that can fail must end in a `catch` (or be returned, or awaited),
    /// so `store.save(sample).done { … }` alone warns that its error would be lost.
    ///
    /// - Parameters:
    ///   - executor: Where `body` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - body: Receives the value; a thrown error rejects the result.
    /// - Returns: A `Promise<Void>` fulfilled after `body` ran.
    @inlinable
    public func done(
        on executor: FlowExecutor? = nil,
        _ body: @escaping @Sendable (Value) throws -> Void
    ) -> Promise<Void> {
        chain(on: executor, handles: .success, .map(body))
    }

    /// Discards the value: a `Promise<Void>` settled when this one is.
    ///
    /// - Returns: A promise of `()` or the same error.
    @inlinable
    public func asVoid() -> Promise<Void> {
        map(on: .immediate) { _ in () }
    }
}

/// Starts a chain with a step that may throw, so that every step, the first one included, reads alike and
/// a synchronous throw becomes a rejection.
///
/// - Parameter body: Runs at once, on the calling thread.
/// - Returns: The promise `body` returned, or one rejected with the error it threw.
@inlinable
public func firstly<Value: Sendable>(_ body: () throws -> Promise<Value>) -> Promise<Value> {
    do {
        return try body()
    } catch {
        return Promise(error: error)
    }
}
