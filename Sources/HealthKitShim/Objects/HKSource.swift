import Foundation
import HealthFlow

/// The app or device that saved an object.
///
/// ```swift
/// let me = HKSource.default()
/// print(me.bundleIdentifier)
/// ```
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKSource: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (one `let` of a Sendable value type).
    let healthFlowSource: HealthSource

    init(healthFlowSource: HealthSource) {
        self.healthFlowSource = healthFlowSource
    }

    /// The source's name.
    ///
    /// ```swift
    /// HKSource.default().name
    /// ```
    public var name: String { healthFlowSource.name }

    /// The source's bundle identifier.
    ///
    /// ```swift
    /// HKSource.default().bundleIdentifier
    /// ```
    public var bundleIdentifier: String { healthFlowSource.bundleIdentifier }

    /// The source of the running app (on Linux: the shim device's app).
    ///
    /// ```swift
    /// let me = HKSource.default()
    /// ```
    public class func `default`() -> HKSource {
        HKSource(healthFlowSource: HealthKitShimDevice.current.backend.source)
    }

    /// Sources are equal when their bundle identifiers and names are.
    ///
    /// ```swift
    /// HKSource.default() == HKSource.default()   // true
    /// ```
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKSource)?.healthFlowSource == healthFlowSource
    }

    /// A hash consistent with equality.
    ///
    /// ```swift
    /// let sources: Set<HKSource> = [HKSource.default()]
    /// ```
    public override var hash: Int { healthFlowSource.hashValue }
}

/// A source at a version (HealthKit adds product type and OS version; the shim leaves them `nil`).
///
/// ```swift
/// sample.sourceRevision.source.bundleIdentifier
/// ```
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKSourceRevision: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (`let`s of Sendable types).

    /// The source.
    ///
    /// ```swift
    /// sample.sourceRevision.source.name
    /// ```
    public let source: HKSource

    /// The source's version, when known.
    ///
    /// ```swift
    /// sample.sourceRevision.version
    /// ```
    public let version: String?

    /// The device model (e.g. `"iPhone17,1"`), when known.
    ///
    /// ```swift
    /// sample.sourceRevision.productType
    /// ```
    public let productType: String?

    /// A revision of `source`.
    ///
    /// ```swift
    /// let revision = HKSourceRevision(source: .default(), version: "1.0")
    /// ```
    public init(source: HKSource, version: String?) {
        self.source = source
        self.version = version
        self.productType = nil
    }
}

/// The device that produced a sample (the shim keeps only its name).
///
/// ```swift
/// sample.device?.name
/// ```
///
/// - Note: Sendable as in the iOS 18 SDK; every instance is immutable.
public final class HKDevice: NSObject, @unchecked Sendable {
    // @unchecked: immutable after init (`let`s of Sendable types).

    /// The device's name.
    ///
    /// ```swift
    /// HKDevice.local().name
    /// ```
    public let name: String?

    init(name: String?) {
        self.name = name
    }

    /// The device the app runs on.
    ///
    /// ```swift
    /// let here = HKDevice.local()
    /// ```
    public class func local() -> HKDevice { HKDevice(name: ProcessInfo.processInfo.hostName) }
}
