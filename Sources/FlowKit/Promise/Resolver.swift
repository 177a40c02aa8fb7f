/// Settles one pending ``Promise``: the only handle code outside the promise needs.
///
/// All methods are thread-safe and the first resolution wins; later calls are ignored. The `resolve`
/// overloads accept the completion-handler shapes of HealthKit, URLSession and friends directly, which makes
/// wrapping a callback API a one-liner.
public struct Resolver<Value: Sendable>: Sendable {
    /// The promise this resolver settles.
    public let promise: Promise<Value>

    @inlinable
    init(_ promise: Promise<Value>) {
        self.promise = promise
    }

    /// Fulfills the promise with `value`.
    ///
    /// - Parameter value: The value.
    @inlinable
    public func fulfill(_ value: Value) {
        promise.settle(.success(value))
    }

    /// Rejects the promise with `error`.
    ///
    /// - Parameter error: The error.
    @inlinable
    public func reject(_ error: any Error) {
        promise.settle(.failure(error))
    }

    /// Settles the promise with `result`; also fits `(Result<Value, Error>) -> Void` completion handlers.
    ///
    /// - Parameter result: The value or error.
    @inlinable
    public func resolve(_ result: Result<Value, any Error>) {
        promise.settle(result)
    }

    /// Settles from a `(Value?, Error?)` completion: the error wins if present; two `nil`s reject with
    /// ``PromiseError/invalidCallbackResult``.
    ///
    /// - Parameters:
    ///   - value: The value, if any.
    ///   - error: The error, if any.
    @inlinable
    public func resolve(_ value: Value?, _ error: (any Error)?) {
        if let error {
            reject(error)
        } else if let value {
            fulfill(value)
        } else {
            reject(PromiseError.invalidCallbackResult)
        }
    }

    /// Settles with whatever `other` settles with (a promise resolved with a promise). Cancelling this
    /// promise withdraws it from `other`. Resolving a promise with itself rejects with
    /// ``PromiseError/chainingCycle``.
    ///
    /// - Parameter other: The promise to follow.
    @inlinable
    public func resolve(with other: Promise<Value>) {
        promise.adopt(other)
    }

    /// Registers work to stop when the promise is cancelled while pending (a URL task, a timer, a query).
    /// Runs at once if the promise was already cancelled; never runs if it settled any other way.
    ///
    /// - Parameter handler: Called at most once, on the thread that cancels.
    @inlinable
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        promise.addCancelHandler(handler)
    }

    /// Whether the promise was cancelled (so long-running work can stop early).
    @inlinable
    public var isCancelled: Bool {
        if case .failure(let error)? = promise.result { return error is CancellationError }
        return false
    }
}

extension Resolver where Value == Void {
    /// Fulfills a `Promise<Void>`.
    @inlinable
    public func fulfill() {
        fulfill(())
    }

    /// Settles from an `(Error?) -> Void` completion: `nil` fulfills.
    ///
    /// - Parameter error: The error, if any.
    @inlinable
    public func resolve(_ error: (any Error)?) {
        if let error { reject(error) } else { fulfill() }
    }

    /// Settles from a `(Bool, Error?)` completion such as HealthKit's `save` and `requestAuthorization`:
    /// the error wins if present; `true` fulfills; `false` with no error rejects with
    /// ``PromiseError/invalidCallbackResult``.
    ///
    /// - Parameters:
    ///   - success: Whether the operation succeeded.
    ///   - error: The error, if any.
    @inlinable
    public func resolve(_ success: Bool, _ error: (any Error)?) {
        if let error {
            reject(error)
        } else if success {
            fulfill()
        } else {
            reject(PromiseError.invalidCallbackResult)
        }
    }
}
