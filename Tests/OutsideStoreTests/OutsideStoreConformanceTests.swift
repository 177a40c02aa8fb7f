import Foundation
import HealthFlow
import StoreConformance
import Testing

/// A store built outside HealthFlow on its public backend protocol answers the conformance session exactly
/// like the in-memory store, and by HealthKit's rules.
struct OutsideStoreConformanceTests {
    static let app = HealthAppConfiguration(
        bundleIdentifier: "com.example.outside", name: "Outside",
        healthShareUsageDescription: "Reads your data.", healthUpdateUsageDescription: "Writes your data.")

    static func dictionaryStore() -> ConformanceSubject {
        let store = BackedHealthStore(
            backend: DictionaryBackend(), configuration: app, policy: HealthStoreConformance.policy)
        return ConformanceSubject(name: "dictionary store", store: store, app: app, ingest: { try store.ingest($0) })
    }

    @Test func dictionaryStoreFollowsHealthKitsRules() async throws {
        let transcript = try await HealthStoreConformance.transcript(of: Self.dictionaryStore())
        #expect(HealthStoreConformance.ruleViolations(in: transcript) == [])
    }

    @Test func dictionaryStoreAnswersExactlyLikeTheInMemoryStore() async throws {
        let reference = try await HealthStoreConformance.transcript(of: .inMemory(app: Self.app))
        let outside = try await HealthStoreConformance.transcript(of: Self.dictionaryStore())
        #expect(reference.count == outside.count)
        for (expected, actual) in zip(reference, outside) {
            #expect(expected == actual)
        }
    }
}
