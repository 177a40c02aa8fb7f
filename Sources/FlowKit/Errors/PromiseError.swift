/// The errors FlowKit itself produces. Your own errors pass through every operator unchanged.
///
/// Cancellation is not a case here: cancelled steps reject with Swift's `CancellationError`, the same error a
/// cancelled `Task` throws, so `try await promise.value` and structured concurrency agree on what it means.
public enum PromiseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `timeout(_:)` fired before the promise settled.
    case timedOut(after: Duration)
    /// A combinator that needs at least one input (`race`, `any`) was given none.
    case emptyInput(operation: String)
    /// Every input of `any` rejected; the errors are in input order.
    case allFailed([any Error])
    /// `validate` found a value that did not pass its predicate.
    case validationFailed
    /// `compactMap` returned `nil`.
    case missingValue
    /// A callback reported neither a value nor an error (a `(Value?, Error?)` pair of two `nil`s), or
    /// `false` with no error for a `(Bool, Error?)` completion.
    case invalidCallbackResult
    /// A promise was resolved with itself (directly or through the value a `then` returned).
    case chainingCycle
    /// `retry` was asked for fewer than one attempt.
    case invalidAttemptCount(Int)

    /// A readable explanation of the error.
    public var description: String {
        switch self {
        case .timedOut(let after): "the operation timed out after \(after)"
        case .emptyInput(let operation): "\(operation) needs at least one input"
        case .allFailed(let errors):
            "all \(errors.count) inputs failed: \(errors.map { "\($0)" }.joined(separator: "; "))"
        case .validationFailed: "the value did not pass validation"
        case .missingValue: "compactMap produced no value"
        case .invalidCallbackResult: "the callback reported neither a value nor an error"
        case .chainingCycle: "a promise cannot be resolved with itself"
        case .invalidAttemptCount(let count): "retry needs at least one attempt, got \(count)"
        }
    }

    /// Compares cases; `allFailed` compares the printed errors, as `any Error` has no equality.
    public static func == (lhs: PromiseError, rhs: PromiseError) -> Bool {
        switch (lhs, rhs) {
        case (.timedOut(let a), .timedOut(let b)): a == b
        case (.emptyInput(let a), .emptyInput(let b)): a == b
        case (.allFailed(let a), .allFailed(let b)): a.map { "\($0)" } == b.map { "\($0)" }
        case (.validationFailed, .validationFailed), (.missingValue, .missingValue),
            (.invalidCallbackResult, .invalidCallbackResult), (.chainingCycle, .chainingCycle):
            true
        case (.invalidAttemptCount(let a), .invalidAttemptCount(let b)): a == b
        default: false
        }
    }
}

extension Error {
    /// Whether this error means "cancelled": Swift's `CancellationError`.
    public var isCancellation: Bool { self is CancellationError }
}
