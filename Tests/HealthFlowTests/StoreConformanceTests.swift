import Foundation
import HealthFlow
import StoreConformance
import Testing

/// HealthFlow's own stores run the shared conformance session: the in-memory store follows HealthKit's rules,
/// and the file store answers exactly like it.
struct StoreConformanceTests {
    static let app = HealthAppConfiguration(
        bundleIdentifier: "com.example.conformance", name: "Conformance",
        healthShareUsageDescription: "Reads your data.", healthUpdateUsageDescription: "Writes your data.")

    @Test func inMemoryStoreFollowsHealthKitsRules() async throws {
        let transcript = try await HealthStoreConformance.transcript(of: .inMemory(app: Self.app))
        #expect(HealthStoreConformance.ruleViolations(in: transcript) == [])
    }

    @Test func fileStoreAnswersExactlyLikeTheInMemoryStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try FileHealthStore(
            directory: folder, configuration: Self.app, policy: HealthStoreConformance.policy)
        let file = ConformanceSubject(
            name: "FileHealthStore", store: store, app: Self.app, ingest: { try store.ingest($0) })
        let reference = try await HealthStoreConformance.transcript(of: .inMemory(app: Self.app))
        #expect(try await HealthStoreConformance.transcript(of: file) == reference)
        store.close()
    }
}
