extension Promise {
    /// Waits for the promise in async code: its value, or its error thrown.
    ///
    /// Cancelling the awaiting task stops the wait at once with `CancellationError` and releases the promise,
    /// which is cancelled in turn if nothing else depends on it.
    ///
    /// - Throws: The promise's error, or `CancellationError` when the waiting task is cancelled.
    @inlinable
    public var value: Value {
        get async throws {
            if let result { return try result.get() }
            let observer = DerivedPromise<Value>(upstream: self)
            subscribe { outcome in observer.settle(outcome) }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    observer.subscribe(dependent: false) { continuation.resume(with: $0) }
                }
            } onCancel: {
                observer.cancel()
            }
        }
    }

    /// Waits for the promise to settle and returns its result without throwing.
    @inlinable
    public var settled: Result<Value, any Error> {
        get async {
            do { return .success(try await value) } catch { return .failure(error) }
        }
    }

    /// Runs `operation` in a new `Task` and settles the promise with its outcome; cancelling the promise
    /// cancels the task.
    ///
    /// - Parameters:
    ///   - priority: The task's priority.
    ///   - operation: The async work.
    @inlinable
    public convenience init(
        priority: TaskPriority? = nil,
        _ operation: @escaping @Sendable () async throws -> Value
    ) {
        self.init()
        let task = Task(priority: priority) { [self] in
            do {
                settle(.success(try await operation()))
            } catch {
                settle(.failure(error))
            }
        }
        addCancelHandler { task.cancel() }
    }
}
