extension Promise {
    /// Rejects with ``PromiseError/validationFailed`` (or the error `predicate` throws) when the value does not
    /// pass `predicate`.
    ///
    /// - Parameters:
    ///   - executor: Where `predicate` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - predicate: Returns `true` for acceptable values.
    /// - Returns: A promise of the same value, or rejected.
    @inlinable
    public func validate(
        on executor: FlowExecutor? = nil,
        _ predicate: @escaping @Sendable (Value) throws -> Bool
    ) -> Promise<Value> {
        map(on: executor) { value in
            guard try predicate(value) else { throw PromiseError.validationFailed }
            return value
        }
    }

    /// Transforms the value, rejecting with ``PromiseError/missingValue`` when the transform returns `nil`.
    ///
    /// - Parameters:
    ///   - executor: Where `transform` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - transform: Returns the new value or `nil`.
    /// - Returns: A promise of the unwrapped value.
    @inlinable
    public func compactMap<U: Sendable>(
        on executor: FlowExecutor? = nil,
        _ transform: @escaping @Sendable (Value) throws -> U?
    ) -> Promise<U> {
        map(on: executor) { value in
            guard let transformed = try transform(value) else { throw PromiseError.missingValue }
            return transformed
        }
    }
}
