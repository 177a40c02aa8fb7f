#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A rejection that reached ``Promise/finally(on:file:line:_:)`` with no `catch` before it: an error the chain
/// dropped.
///
/// It names the error's type and where the chain ended, never the error's description, which may carry the
/// caller's data (a health value, a file name). Cancellation is never reported: a cancelled chain ending in
/// `finally` is the intended way to stop quietly.
public struct UnhandledRejection: Sendable, CustomStringConvertible {
    /// The dropped error's type, e.g. `HealthStoreError`.
    public let errorType: String
    /// The source file of the `finally` call, as `#fileID` spells it (`Module/File.swift`).
    public let file: String
    /// The line of the `finally` call.
    public let line: UInt

    @usableFromInline
    init(error: any Error, file: StaticString, line: UInt) {
        errorType = String(reflecting: type(of: error))
        self.file = "\(file)"
        self.line = line
    }

    /// One line: what was dropped, where, and the fix.
    public var description: String {
        "FlowKit: a rejected promise nobody handled (\(errorType)) reached `finally` at \(file):\(line); "
            + "add a `catch` before `finally`, or handle the error where the chain branches"
    }

    /// Hands the report to ``FlowDefaults/unhandledRejection`` unless the error is a cancellation.
    @usableFromInline
    static func report(_ error: any Error, file: StaticString, line: UInt) {
        guard !(error is CancellationError) else { return }
        FlowDefaults.unhandledRejection(UnhandledRejection(error: error, file: file, line: line))
    }

    /// The initial reporter: one line on standard error in debug builds, nothing in release builds.
    static let writeToStandardErrorInDebugBuilds: @Sendable (UnhandledRejection) -> Void = { report in
        #if DEBUG
            let line = report.description + "\n"
            _ = line.utf8CString.withUnsafeBufferPointer { bytes in
                write(2, bytes.baseAddress, bytes.count - 1)
            }
        #endif
    }
}
