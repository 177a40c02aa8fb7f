import FlowKit
import Foundation
import HealthFlow
import HealthFlowHealthKit
import Testing

/// Heartbeat series are not bridged: asking for them and querying their beats are typed errors that never reach
/// HealthKit.
struct HeartbeatSeriesBridgeTests {
    @Test func askingForHeartbeatSeriesOrTheirBeatsIsATypedErrorThatNeverReachesHealthKit() async throws {
        let fixture = BridgeFixture()
        let (success, error) = await healthKitCompletion {
            fixture.store.requestAuthorization(toShare: [], read: [.heartbeatSeries], completion: $0)
        }
        #expect(!success)
        #expect(error == .unsupportedQueryType(.heartbeatSeries, query: "HealthKitStore authorization"))
        #expect(fixture.calls("requestAuthorization") == 0)

        let series = try HealthHeartbeatSeries(
            start: Date(timeIntervalSince1970: 1_709_294_400), end: Date(timeIntervalSince1970: 1_709_294_460),
            count: 0, source: HealthSource(bundleIdentifier: "com.apple.health", name: "Apple Watch"))
        await #expect(
            throws: HealthStoreError.unsupportedQueryType(
                .heartbeatSeries, query: "HealthHeartbeatSeriesQuery(heartbeatSeries)")
        ) {
            try await fixture.store.heartbeats(of: series)
        }
    }
}
