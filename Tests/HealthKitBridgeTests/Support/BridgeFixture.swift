import FlowKit
import Foundation
import HealthFlow
import HealthFlowHealthKit
@_spi(Testing) import HealthKitShim

/// A bridge store over its own shim device, for the tests that look behind the bridge.
struct BridgeFixture {
    let backend: InMemoryHealthStore
    let device: HealthKitShimDevice
    let healthStore: HKHealthStore
    let store: HealthKitStore

    init(policy: AuthorizationPolicy = .grantAll, characteristics: HealthCharacteristics = HealthCharacteristics()) {
        backend = InMemoryHealthStore(
            configuration: StoreUnderTest.app, policy: policy, characteristics: characteristics)
        device = HealthKitShimDevice(backend: backend)
        healthStore = HKHealthStore(device: device)
        store = HealthKitStore(healthStore: healthStore, configuration: StoreUnderTest.app)
    }

    /// A new bridge store over the same device and database, as the app has after a relaunch.
    func relaunched() -> HealthKitStore {
        HealthKitStore(healthStore: HKHealthStore(device: device), configuration: StoreUnderTest.app)
    }

    /// The `HKHealthStore` calls of one kind made so far.
    func calls(_ name: String) -> Int {
        device.healthKitCalls.filter { $0 == name }.count
    }
}

/// Waits for a HealthKit-style `(Bool, Error?)` completion.
func healthKitCompletion(_ body: (@escaping @Sendable (Bool, (any Error)?) -> Void) -> Void) async -> (
    Bool, HealthStoreError?
) {
    let (promise, resolver) = Promise<(Bool, HealthStoreError?)>.pending()
    body { success, error in resolver.fulfill((success, error as? HealthStoreError)) }
    return (try? await promise.value) ?? (false, nil)
}
