import FlowKit

/// Where real HealthKit raises an Objective-C exception (the app crashes), the shim stops the same way:
/// it records the reason, then fails a precondition naming HealthKit's message.
enum HKShimException {
    private static let raised = LockedState<[String]>([])

    /// Records `reason` and stops the process.
    static func raise(_ reason: String) -> Never {
        raised.withLock { $0.append(reason) }
        preconditionFailure("HealthKit exception (NSInvalidArgumentException): \(reason)")
    }

    /// The reasons raised so far in this process (a process only survives with none: raising stops it).
    static var raisedReasons: [String] { raised.withLock { $0 } }
}
