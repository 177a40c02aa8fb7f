import Foundation
import HealthFlow

/// The app or device that saved an object.
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKSource: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowSource: HealthSource

    init(healthFlowSource: HealthSource) {
        self.healthFlowSource = healthFlowSource
    }

    /// The source's name.
    public var name: String { healthFlowSource.name }

    /// The source's bundle identifier.
    public var bundleIdentifier: String { healthFlowSource.bundleIdentifier }

    /// The source of the running app (on Linux: the shim device's app).
    public class func `default`() -> HKSource {
        HKSource(healthFlowSource: HealthKitShimDevice.current.backend.source)
    }

    /// Sources are equal when their bundle identifiers and names are.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKSource)?.healthFlowSource == healthFlowSource
    }

    /// A hash consistent with equality.
    public override var hash: Int { healthFlowSource.hashValue }
}

/// A source at a version (HealthKit adds product type and OS version; the shim leaves them `nil`).
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKSourceRevision: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (`let`s of Sendable types).

    /// The source.
    public let source: HKSource

    /// The source's version, when known.
    public let version: String?

    /// The device model (e.g. `"iPhone17,1"`), when known.
    public let productType: String?

    /// A revision of `source`.
    public init(source: HKSource, version: String?) {
        self.source = source
        self.version = version
        self.productType = nil
    }
}

/// The device that produced a sample (the shim keeps only its name).
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKDevice: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (`let`s of Sendable types).

    /// The device's name.
    public let name: String?

    init(name: String?) {
        self.name = name
    }

    /// The device the app runs on.
    public class func local() -> HKDevice { HKDevice(name: ProcessInfo.processInfo.hostName) }
}
