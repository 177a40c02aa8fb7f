/// FlowKit: promises, executors, time, cancellation and operation graphs, with an async/await façade.
///
/// FlowKit knows nothing of health data; a workshop on promises needs nothing else.
///
/// ```swift
/// import FlowKit
///
/// let answer = Promise(value: 21).map { $0 * 2 }
/// print(try await answer.value)   // 42
/// ```
public enum FlowKit {
    /// The library's version, following semantic versioning.
    public static let version = "0.1.0"
}
