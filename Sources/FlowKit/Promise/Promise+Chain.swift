/// Which results run a chaining operator's body on the caller's executor; the others pass straight through.
@usableFromInline
enum ChainHandles: Sendable {
    case success
    case failure(CatchPolicy)
    case all

    /// Whether the body is skipped once the derived promise was cancelled: `then`, `map`, `catch`… are
    /// skipped (their work is no longer wanted); `ensure` and `tap` always run, since clean-up must happen
    /// however the chain ended, even when the cancellation started below them.
    @inlinable
    var skipsWhenCancelled: Bool {
        if case .all = self { return false }
        return true
    }

    @inlinable
    func runsBody<V>(for result: Result<V, any Error>) -> Bool {
        switch (self, result) {
        case (.all, _), (.success, .success): true
        case (.failure(let policy), .failure(let error)): policy.handles(error)
        default: false
        }
    }
}

/// What a chaining operator's body produced: a value, a promise to follow, or an error.
@usableFromInline
enum ChainStep<Value: Sendable> {
    case value(Value)
    case promise(Promise<Value>)
    case failure(any Error)
}

/// A chaining operator's work. `map` and `then` keep the caller's closure as it is (no wrapper closure to
/// allocate on the hot path); the other operators describe themselves with a general closure.
@usableFromInline
enum ChainBody<In: Sendable, Out: Sendable>: Sendable {
    case map(@Sendable (In) throws -> Out)
    case then(@Sendable (In) throws -> Promise<Out>)
    case general(@Sendable (Result<In, any Error>) throws -> ChainStep<Out>)

    @inlinable
    func step(for result: Result<In, any Error>) -> ChainStep<Out> {
        do {
            switch (self, result) {
            case (.map(let transform), .success(let value)): return .value(try transform(value))
            case (.then(let body), .success(let value)): return .promise(try body(value))
            case (.general(let body), _): return try body(result)
            case (_, .failure(let error)): return .failure(error)
            }
        } catch {
            return .failure(error)
        }
    }
}

extension Promise {
    /// The one building block of every chaining operator.
    ///
    /// Results the operator handles run `body` on `executor` (skipped if the child was cancelled meanwhile);
    /// the rest run it on the trampoline, where it only passes the result through. Either way the child is
    /// settled from a job, never from inside this promise's `settle`, so chains never deepen the stack. The
    /// child is its own continuation (``ChainedPromise``): one allocation per link besides the executor's.
    @inlinable
    func chain<U: Sendable>(
        on executor: FlowExecutor?,
        handles: ChainHandles,
        _ body: ChainBody<Value, U>
    ) -> Promise<U> {
        let child = ChainedPromise(
            source: self, executor: executor ?? FlowDefaults.executor, handles: handles, body: body)
        subscribe { child.sourceSettled(with: $0) }
        return child
    }

    /// ``chain(on:handles:_:)`` with a general body.
    @inlinable
    func chain<U: Sendable>(
        on executor: FlowExecutor?,
        handles: ChainHandles,
        _ body: @escaping @Sendable (Result<Value, any Error>) throws -> ChainStep<U>
    ) -> Promise<U> {
        chain(on: executor, handles: handles, .general(body))
    }

    /// Settles with a chaining step's outcome.
    @inlinable
    func resolve(_ step: ChainStep<Value>) {
        switch step {
        case .value(let value): settle(.success(value))
        case .promise(let promise): adopt(promise)
        case .failure(let error): settle(.failure(error))
        }
    }
}

/// Which errors `catch`, `recover` and `mapError` handle.
///
/// By default they see every error except cancellation, so cancelling a chain does not show an error alert or
/// resume work through a `recover`; `ensure` and `tap` always run. <doc:ChainingAndErrors> shows both policies.
public enum CatchPolicy: Sendable {
    /// Every error, `CancellationError` included.
    case allErrors
    /// Every error except `CancellationError` (the default).
    case allErrorsExceptCancellation

    // Not inlined: the type check would put a metadata lookup on every link's path, errors or not.
    @usableFromInline
    @inline(never)
    func handles(_ error: any Error) -> Bool {
        switch self {
        case .allErrors: true
        case .allErrorsExceptCancellation: !(error is CancellationError)
        }
    }
}
