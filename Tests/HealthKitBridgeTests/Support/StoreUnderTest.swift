import FlowKit
import Foundation
import HealthFlow
import HealthFlowHealthKit
@_spi(Testing) import HealthKitShim
import StoreConformance

/// A store the conformance suite runs against, with the hook that puts other apps' data (a watch's samples)
/// into the database behind it.
struct StoreUnderTest: Sendable {
    let name: String
    let store: any HealthStore
    let ingest: @Sendable ([HealthSample]) throws -> Void
    /// The shim device behind a bridge store (`nil` for the plain HealthFlow stores).
    let device: HealthKitShimDevice?

    /// The app every store in these tests belongs to: the shim's default app, so `HKSource.default()` (which a
    /// bridge uses as the saving app, as on a device) names it.
    static let app = HealthKitShimDevice.makeDefaultBackend().configuration
    static let appSource = app.source
    static let watch = HealthSource(bundleIdentifier: "com.apple.health.watch", name: "Apple Watch")
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The store as the shared conformance session takes it.
    var subject: ConformanceSubject {
        ConformanceSubject(name: name, store: store, app: Self.app, ingest: ingest)
    }

    static func inMemory(policy: AuthorizationPolicy = .grantAll, configuration: HealthAppConfiguration = app)
        -> StoreUnderTest
    {
        let store = InMemoryHealthStore(configuration: configuration, policy: policy)
        return StoreUnderTest(name: "InMemoryHealthStore", store: store, ingest: { try store.ingest($0) }, device: nil)
    }

    static func file(policy: AuthorizationPolicy = .grantAll) throws -> StoreUnderTest {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hk-conformance-\(UUID())")
        let store = try FileHealthStore(directory: folder, configuration: app, policy: policy)
        return StoreUnderTest(name: "FileHealthStore", store: store, ingest: { try store.ingest($0) }, device: nil)
    }

    static func bridge(policy: AuthorizationPolicy = .grantAll, configuration: HealthAppConfiguration = app)
        -> StoreUnderTest
    {
        let backend = InMemoryHealthStore(configuration: configuration, policy: policy)
        let device = HealthKitShimDevice(backend: backend)
        let store = HealthKitStore(healthStore: HKHealthStore(device: device), configuration: configuration)
        return StoreUnderTest(
            name: "HealthKitStore over HealthKitShim", store: store, ingest: { try backend.ingest($0) },
            device: device)
    }
}
