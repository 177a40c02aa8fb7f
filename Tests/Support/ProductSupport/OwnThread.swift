import Foundation

/// Runs blocking `work` (a child process to its end, a server's first line) on a new thread and awaits its result.
///
/// Swift Testing runs every test on the cooperative pool, which has one thread per core — two on the CI machine. A
/// test that blocks one of them while a child process starts or runs stalls every other test, and their time
/// limits then count the stall. Awaiting this instead holds no pool thread.
public func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
