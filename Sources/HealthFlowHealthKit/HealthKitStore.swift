import FlowKit
import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

/// HealthFlow's `HealthStore` over HealthKit's `HKHealthStore`: every workflow, example and sync in HealthFlow
/// runs on an iPhone unchanged. It checks HealthFlow's rules **before** calling HealthKit (so the calls where
/// HealthKit would raise an exception — a wrong unit, insulin without its reason, sharing a read-only type,
/// authorizing a correlation type, statistics options the type does not allow, a query run twice — return
/// typed errors instead), converts samples both ways without loss, and maps HealthKit's error codes to
/// `HealthStoreError`. On Linux it runs over `HealthKitShim`.
///
/// - Note: Sendable: the state it keeps (running queries, anchors, UUIDs seen) is behind a lock.
public final class HealthKitStore: HealthStore {
    /// The HealthKit store every call goes to.
    public let healthStore: HKHealthStore

    /// The app's identity and usage descriptions (HealthFlow's authorization rules need them).
    public let configuration: HealthAppConfiguration

    let state = LockedState(BridgeState())

    /// A store over `healthStore` for the app described by `configuration`.
    public init(healthStore: HKHealthStore = HKHealthStore(), configuration: HealthAppConfiguration) {
        self.healthStore = healthStore
        self.configuration = configuration
    }

    /// Whether HealthKit is available on this device.
    public var isHealthDataAvailable: Bool { HKHealthStore.isHealthDataAvailable() }

    /// The source HealthKit stamps on what this app saves.
    public var source: HealthSource { BridgeTypes.source(HKSource.default()) }

    /// What HealthKit holds that the answers so far could not carry into HealthFlow's model — objects left out,
    /// and metadata entries, correlation members or saved units an object was delivered without — each once, in
    /// the order met. The list grows with what the app reads.
    public var conversionSkips: [HealthKitConversionSkip] { state.withLock { $0.skips } }

    // MARK: Authorization

    /// Validates with HealthFlow's rules (no read-only or correlation types, usage descriptions present), then
    /// asks HealthKit.
    public func requestAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        withValidatedRequest(share: typesToShare, read: typesToRead, failed: { completion(false, $0) }) {
            request, share, read in
            let first = (request.share.union(request.read)).min { $0.identifier < $1.identifier }
            healthStore.requestAuthorization(toShare: share, read: read) { success, error in
                completion(success, error.map { BridgeErrors.healthFlow($0, type: first) })
            }
        }
    }

    /// HealthKit's sharing status for `type`.
    public func authorizationStatus(for type: HealthObjectType) -> AuthorizationStatus {
        guard let healthKitType = BridgeTypes.healthKit(type) else { return .notDetermined }
        return AuthorizationStatus(rawValue: healthStore.authorizationStatus(for: healthKitType).rawValue)
            ?? .notDetermined
    }

    /// Validates like `requestAuthorization`, then asks HealthKit whether the sheet would show.
    public func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (AuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        withValidatedRequest(share: typesToShare, read: typesToRead, failed: { completion(.unknown, $0) }) {
            _, share, read in
            healthStore.getRequestStatusForAuthorization(toShare: share, read: read) { status, error in
                completion(
                    AuthorizationRequestStatus(rawValue: status.rawValue) ?? .unknown,
                    error.map { BridgeErrors.healthFlow($0, type: nil) })
            }
        }
    }

    /// Validates with HealthFlow's rules (no read-only or correlation types, usage descriptions present) and checks
    /// that HealthKit knows every type, then hands `body` the request with HealthKit's type sets; a refusal goes to
    /// `failed` instead.
    private func withValidatedRequest(
        share: Set<HealthObjectType>, read: Set<HealthObjectType>, failed: (HealthStoreError) -> Void,
        _ body: (AuthorizationRequest, Set<HKSampleType>, Set<HKObjectType>) -> Void
    ) {
        guard isHealthDataAvailable else { return failed(.healthDataUnavailable) }
        let request: AuthorizationRequest
        do {
            request = try AuthorizationRules.validate(share: share, read: read, configuration: configuration)
        } catch {
            return failed(error)
        }
        if let unknown = request.share.union(request.read).first(where: { BridgeTypes.healthKit($0) == nil }) {
            return failed(.unsupportedQueryType(unknown, query: "HealthKitStore authorization"))
        }
        body(
            request, Set(request.share.compactMap(BridgeTypes.healthKitSample)),
            Set(request.read.compactMap(BridgeTypes.healthKit)))
    }

    // MARK: Characteristics

    private func characteristic<Value>(_ type: HealthObjectType, _ read: () throws -> Value)
        throws(HealthStoreError) -> Value
    {
        guard isHealthDataAvailable else { throw .healthDataUnavailable }
        do {
            return try read()
        } catch {
            throw BridgeErrors.healthFlow(error, type: type)
        }
    }

    /// A characteristic whose HealthKit enum and HealthFlow enum share raw values; a raw value HealthFlow's enum
    /// lacks reads as `unknown`.
    private func characteristic<Answer: RawRepresentable<Int>>(
        _ type: HealthObjectType, unknown: Answer, _ read: () throws -> Int
    ) throws(HealthStoreError) -> Answer {
        Answer(rawValue: try characteristic(type, read)) ?? unknown
    }

    /// The person's date of birth.
    ///
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, or HealthKit's error as a `HealthStoreError`.
    public func dateOfBirthComponents() throws(HealthStoreError) -> DateComponents {
        try characteristic(.dateOfBirth) { try healthStore.dateOfBirthComponents() }
    }

    /// The person's biological sex; a value HealthFlow does not know reads as `.notSet`.
    ///
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, or HealthKit's error as a `HealthStoreError`.
    public func biologicalSex() throws(HealthStoreError) -> BiologicalSex {
        try characteristic(.biologicalSex, unknown: .notSet) { try healthStore.biologicalSex().biologicalSex.rawValue }
    }

    /// The person's blood type; a value HealthFlow does not know reads as `.notSet`.
    ///
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, or HealthKit's error as a `HealthStoreError`.
    public func bloodType() throws(HealthStoreError) -> BloodType {
        try characteristic(.bloodType, unknown: .notSet) { try healthStore.bloodType().bloodType.rawValue }
    }

    /// The person's Fitzpatrick skin type; a value HealthFlow does not know reads as `.notSet`.
    ///
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, or HealthKit's error as a `HealthStoreError`.
    public func fitzpatrickSkinType() throws(HealthStoreError) -> FitzpatrickSkinType {
        try characteristic(.fitzpatrickSkinType, unknown: .notSet) {
            try healthStore.fitzpatrickSkinType().skinType.rawValue
        }
    }

    /// Whether the person uses a wheelchair; a value HealthFlow does not know reads as `.notSet`.
    ///
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, or HealthKit's error as a `HealthStoreError`.
    public func wheelchairUse() throws(HealthStoreError) -> WheelchairUse {
        try characteristic(.wheelchairUse, unknown: .notSet) { try healthStore.wheelchairUse().wheelchairUse.rawValue }
    }

    /// How the person's move ring is measured; a value HealthFlow does not know reads as `.activeEnergy`.
    ///
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, or HealthKit's error as a `HealthStoreError`.
    public func activityMoveMode() throws(HealthStoreError) -> ActivityMoveMode {
        try characteristic(.activityMoveMode, unknown: .activeEnergy) {
            try healthStore.activityMoveMode().activityMoveMode.rawValue
        }
    }
}

/// What the bridge remembers: the HealthKit anchors behind HealthFlow's (HealthFlow anchors are numbers;
/// HealthKit's are opaque), and the HealthFlow UUID of each HealthKit object it has seen (deletion tombstones
/// carry only HealthKit's UUID).
struct BridgeState {
    var anchors = BridgeAnchors()
    var uuids: [UUID: UUID] = [:]
    /// Every skip once, in the order first met.
    private(set) var skips: [HealthKitConversionSkip] = []
    private var skipSet: Set<HealthKitConversionSkip> = []

    mutating func record(_ new: [HealthKitConversionSkip]) {
        for skip in new where skipSet.insert(skip).inserted { skips.append(skip) }
    }
}

extension HealthAppConfiguration {
    /// The running app's identity and the two usage descriptions from its Info.plist.
    public static func fromMainBundle() -> HealthAppConfiguration {
        let bundle = Bundle.main
        return HealthAppConfiguration(
            bundleIdentifier: bundle.bundleIdentifier ?? "unknown",
            name: bundle.object(forInfoDictionaryKey: "CFBundleName") as? String ?? "App",
            healthShareUsageDescription: bundle.object(forInfoDictionaryKey: "NSHealthShareUsageDescription")
                as? String,
            healthUpdateUsageDescription: bundle.object(forInfoDictionaryKey: "NSHealthUpdateUsageDescription")
                as? String)
    }
}
