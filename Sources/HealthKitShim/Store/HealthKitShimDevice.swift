import FlowKit
import Foundation
import HealthFlow

/// The simulated device behind the shim: the app's identity and an in-memory HealthFlow store standing in for
/// the device's health database. Every `HKHealthStore()` made while a device is current talks to it, as every
/// `HKHealthStore` of an app shares one database on an iPhone. Tests make their own.
///
/// ```swift
/// let device = HealthKitShimDevice(backend: InMemoryHealthStore(configuration: app, policy: .grantAll))
/// let store = HKHealthStore(device: device)
/// ```
@_spi(Testing)
public final class HealthKitShimDevice: Sendable {
    /// The HealthFlow store that holds the device's data and answers authorization.
    ///
    /// ```swift
    /// try device.backend.ingest(samplesFromTheWatch)
    /// ```
    public let backend: InMemoryHealthStore

    private let calls = LockedState<[String]>([])

    /// A device over `backend`.
    ///
    /// ```swift
    /// let device = HealthKitShimDevice(backend: InMemoryHealthStore(configuration: app))
    /// ```
    public init(backend: InMemoryHealthStore) {
        self.backend = backend
    }

    /// The `HKHealthStore` methods called on this device so far, in order (`"save"`, `"execute"`, …): a test
    /// shows with it that a bridge refused bad input before calling HealthKit at all.
    ///
    /// ```swift
    /// #expect(device.healthKitCalls.isEmpty)
    /// ```
    public var healthKitCalls: [String] { calls.withLock { $0 } }

    func record(_ call: String) {
        calls.withLock { $0.append(call) }
    }

    private static let shared = LockedState<HealthKitShimDevice>(HealthKitShimDevice(backend: makeDefaultBackend()))

    /// The device `HKHealthStore()` uses; replace it to start from an empty database.
    ///
    /// ```swift
    /// HealthKitShimDevice.current = HealthKitShimDevice(backend: InMemoryHealthStore(configuration: app))
    /// ```
    public static var current: HealthKitShimDevice {
        get { shared.withLock { $0 } }
        set { shared.withLock { $0 = newValue } }
    }

    /// A store for an app with both usage descriptions whose person allows everything asked.
    ///
    /// ```swift
    /// let backend = HealthKitShimDevice.makeDefaultBackend()
    /// ```
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
///
/// ```swift
/// #expect(HealthKitShimExceptions.raisedReasons.isEmpty)
/// #expect(HealthKitShimExceptions.reasonForAuthorization(toShare: [exerciseTime], read: []) != nil)
/// ```
@_spi(Testing)
public enum HealthKitShimExceptions {
    /// The reasons raised in this process; a raise stops the process, so a live process sees none.
    ///
    /// ```swift
    /// #expect(HealthKitShimExceptions.raisedReasons.isEmpty)
    /// ```
    public static var raisedReasons: [String] { HKShimException.raisedReasons }

    /// The exception `HKQuantitySample(type:quantity:start:end:metadata:)` would raise, or `nil`.
    ///
    /// ```swift
    /// HealthKitShimExceptions.reasonForQuantitySample(type: height, quantity: grams, start: now, end: now, metadata: nil)
    /// ```
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
    ///
    /// ```swift
    /// HealthKitShimExceptions.reasonForAuthorization(toShare: [HKQuantityType(.appleExerciseTime)], read: [])
    /// ```
    public static func reasonForAuthorization(
        toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
        device: HealthKitShimDevice = .current
    ) -> String? {
        ShimAuthorization.exceptionReason(
            share: Set(typesToShare.map(\.healthFlowType)), read: Set(typesToRead.map(\.healthFlowType)),
            configuration: device.backend.configuration)
    }

    /// The exception a statistics query with these options would raise, or `nil`.
    ///
    /// ```swift
    /// HealthKitShimExceptions.reasonForStatistics(type: HKQuantityType(.height), options: .cumulativeSum)
    /// ```
    public static func reasonForStatistics(type: HKQuantityType, options: HKStatisticsOptions) -> String? {
        ShimStatisticsRules.exceptionReason(type: type, options: options)
    }

    /// The exception `execute` would raise for `query`, or `nil`.
    ///
    /// ```swift
    /// HealthKitShimExceptions.reasonForExecuting(query)
    /// ```
    public static func reasonForExecuting(_ query: HKQuery) -> String? {
        query.hasBeenExecuted ? ShimQueryRules.executedTwiceReason(query) : nil
    }
}
