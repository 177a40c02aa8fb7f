extension Promise {
    /// Runs `body` however the promise settles — fulfilled, rejected or cancelled — and passes the result on.
    ///
    /// - Parameters:
    ///   - executor: Where `body` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - body: The clean-up.
    /// - Returns: A promise settled like this one, after `body` ran.
    @inlinable
    public func ensure(
        on executor: FlowExecutor? = nil,
        _ body: @escaping @Sendable () -> Void
    ) -> Promise<Value> {
        chain(on: executor, handles: .all) { result in
            body()
            return ChainStep(result)
        }
    }

    /// Runs `body` however the chain ends; the terminal form of ``ensure(on:_:)``.
    ///
    /// `finally` ends the chain, so an error that reaches it is lost: put a `catch` before it. A rejection
    /// other than cancellation that reaches `finally` is reported to ``FlowDefaults/unhandledRejection`` (in
    /// debug builds, one line on standard error naming the error's type and this call's place) before `body`
    /// runs, so a `body` that ends the process does not lose the report.
    ///
    /// - Parameters:
    ///   - executor: Where `body` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - file: The place reported with a dropped error; leave the default.
    ///   - line: The place reported with a dropped error; leave the default.
    ///   - body: The clean-up.
    @inlinable
    public func finally(
        on executor: FlowExecutor? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ body: @escaping @Sendable () -> Void
    ) {
        _ = chain(on: executor, handles: .all) { result in
            if case .failure(let error) = result {
                UnhandledRejection.report(error, file: file, line: line)
            }
            body()
            return ChainStep(result)
        }
    }

    /// Runs `body` with the value, then passes the value on unchanged (PromiseKit's `get`); a rejection skips
    /// `body`, and a throw from `body` rejects the returned promise.
    ///
    /// - Parameters:
    ///   - executor: Where `body` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - body: Receives the value.
    /// - Returns: A promise of the same value, after `body` ran.
    @inlinable
    public func get(
        on executor: FlowExecutor? = nil,
        _ body: @escaping @Sendable (Value) throws -> Void
    ) -> Promise<Value> {
        map(on: executor) { value in
            try body(value)
            return value
        }
    }

    /// Looks at the result without changing it (logging, metrics, tests).
    ///
    /// - Parameters:
    ///   - executor: Where `body` runs; ``FlowDefaults/executor`` when `nil`.
    ///   - body: Receives the result.
    /// - Returns: A promise settled like this one, after `body` ran.
    @inlinable
    public func tap(
        on executor: FlowExecutor? = nil,
        _ body: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> Promise<Value> {
        chain(on: executor, handles: .all) { result in
            body(result)
            return ChainStep(result)
        }
    }
}

extension ChainStep {
    @inlinable
    init(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value): self = .value(value)
        case .failure(let error): self = .failure(error)
        }
    }
}
