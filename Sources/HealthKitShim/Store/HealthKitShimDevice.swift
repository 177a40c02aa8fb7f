import FlowKit
import Foundation
import HealthFlow

/// The simulated device behind the shim: the app's identity and an in-memory HealthFlow store standing in for
/// the device's health database. Every `HKHealthStore()` made while a device is current talks to it, as every
/// `HKHealthStore` of an app shares one database on an iPhone. Tests make their own.
@_spi(Testing)
public final class HealthKitShimDevice: Sendable {
    /// The HealthFlow store that holds the device's data and answers authorization.
    public let backend: InMemoryHealthStore

    private let calls = LockedState<[String]>([])

    /// A device over `backend`.
    public init(backend: InMemoryHealthStore) {
        self.backend = backend
    }

    /// The `HKHealthStore` methods called on this device so far, in order (`"save"`, `"execute"`, …): a test
    /// shows with it that a bridge refused bad input before calling HealthKit at all.
    public var healthKitCalls: [String] { calls.withLock { $0 } }

    func record(_ call: String) {
        calls.withLock { $0.append(call) }
    }

    private static let shared = LockedState<HealthKitShimDevice>(HealthKitShimDevice(backend: makeDefaultBackend()))

    /// The device `HKHealthStore()` uses; replace it to start from an empty database.
    public static var current: HealthKitShimDevice {
        get { shared.withLock { $0 } }
        set { shared.withLock { $0 = newValue } }
    }

    /// A store for an app with both usage descriptions whose person allows everything asked.
    public static func makeDefaultBackend() -> InMemoryHealthStore {
        InMemoryHealthStore(
            configuration: HealthAppConfiguration(
                bundleIdentifier: "com.example.healthkit-shim", name: "HealthKit Shim App",
                healthShareUsageDescription: "Reads your health data.",
                healthUpdateUsageDescription: "Saves your health data."),
            policy: .grantAll)
    }
}

/// HealthKit's exception paths, observable from tests.
@_spi(Testing)
public enum HealthKitShimExceptions {
    /// The reasons raised in this process; a raise stops the process, so a live process sees none.
    public static var raisedReasons: [String] { HKShimException.raisedReasons }

    /// The exception `HKQuantitySample(type:quantity:start:end:metadata:)` would raise, or `nil`.
    public static func reasonForQuantitySample(
        type: HKQuantityType, quantity: HKQuantity, start: Date, end: Date, metadata: [String: Any]?
    ) -> String? {
        var typed: [MetadataKey: MetadataValue] = [:]
        for (key, value) in metadata ?? [:] {
            guard let converted = ShimMetadata.convert(value) else { return "Invalid class for metadata key: \(key)" }
            typed[MetadataKey(rawValue: key)] = converted
        }
        do {
            _ = try HealthQuantitySample(
                type: type.healthFlowType, quantity: quantity.healthFlowQuantity, start: start, end: end,
                source: ShimPlaceholder.source, metadata: typed)
            return nil
        } catch {
            return ShimExceptionReason.message(for: error)
        }
    }

    /// The exception `requestAuthorization(toShare:read:completion:)` would raise, or `nil`.
    public static func reasonForAuthorization(
        toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
        device: HealthKitShimDevice = .current
    ) -> String? {
        ShimAuthorization.exceptionReason(
            share: Set(typesToShare.map(\.healthFlowType)), read: Set(typesToRead.map(\.healthFlowType)),
            configuration: device.backend.configuration)
    }

    /// The exception a statistics query with these options would raise, or `nil`.
    public static func reasonForStatistics(type: HKQuantityType, options: HKStatisticsOptions) -> String? {
        ShimStatisticsRules.exceptionReason(type: type, options: options)
    }

    /// The exception `execute` would raise for `query`, or `nil`.
    public static func reasonForExecuting(_ query: HKQuery) -> String? {
        query.hasBeenExecuted ? ShimQueryRules.executedTwiceReason(query) : nil
    }
}
