extension Promise {
    /// Handles an error at the end of a chain.
    ///
    /// - Parameters:
    ///   - executor: Where `body` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - policy: Which errors reach `body`; by default all but cancellation.
    ///   - body: Receives the error.
    /// - Returns: A `Promise<Void>` that fulfills once the chain succeeded or `body` handled its error, and
    ///   rejects only with an error the policy left alone.
    @inlinable
    @discardableResult
    public func `catch`(
        on executor: FlowExecutor? = nil,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) -> Void
    ) -> Promise<Void> {
        chain(on: executor, handles: .failure(policy)) { result in
            switch result {
            case .success:
                return .value(())
            case .failure(let error):
                guard policy.handles(error) else { return .failure(error) }
                body(error)
                return .value(())
            }
        }
    }

    /// Turns an error into a replacement promise, so the chain can go on.
    ///
    /// - Parameters:
    ///   - executor: Where `body` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - policy: Which errors reach `body`; by default all but cancellation.
    ///   - body: Receives the error; returns a promise to follow, or rethrows to keep the chain rejected.
    /// - Returns: This promise's value, or what `body` provides.
    @inlinable
    public func recover(
        on executor: FlowExecutor? = nil,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) throws -> Promise<Value>
    ) -> Promise<Value> {
        chain(on: executor, handles: .failure(policy)) { result in
            switch result {
            case .success(let value): return .value(value)
            case .failure(let error):
                guard policy.handles(error) else { return .failure(error) }
                return .promise(try body(error))
            }
        }
    }

    /// Turns an error into a replacement value, so the chain can go on.
    ///
    /// - Parameters:
    ///   - executor: Where `body` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - policy: Which errors reach `body`; by default all but cancellation.
    ///   - body: Receives the error; returns a value, or rethrows to keep the chain rejected.
    /// - Returns: This promise's value, or what `body` returns.
    @inlinable
    public func recover(
        on executor: FlowExecutor? = nil,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ body: @escaping @Sendable (any Error) throws -> Value
    ) -> Promise<Value> {
        recover(on: executor, policy: policy) { error in Promise(value: try body(error)) }
    }

    /// Replaces an error with another (to wrap low-level errors in your domain's).
    ///
    /// - Parameters:
    ///   - executor: Where `transform` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - policy: Which errors are mapped; by default all but cancellation, which passes through unchanged.
    ///   - transform: Receives the error and returns the one to reject with.
    /// - Returns: This promise's value, or the transformed error.
    @inlinable
    public func mapError(
        on executor: FlowExecutor? = nil,
        policy: CatchPolicy = .allErrorsExceptCancellation,
        _ transform: @escaping @Sendable (any Error) -> any Error
    ) -> Promise<Value> {
        chain(on: executor, handles: .failure(policy)) { result in
            switch result {
            case .success(let value): .value(value)
            case .failure(let error): .failure(policy.handles(error) ? transform(error) : error)
            }
        }
    }
}
