import FlowKit
import Foundation
import HealthFlow
import HealthFlowHealthKit
@_spi(Testing) import HealthKitShim
import HealthSync
import Testing

/// Anchors the bridge hands out carry HealthKit's archived anchor, so a persisted anchor resumes in a later
/// launch (a new `HealthKitStore` over the same device) instead of reading everything again.
@Suite struct AnchorRelaunchTests {
    let noon = Date(timeIntervalSince1970: 1_709_294_400)

    func steps(_ count: Double, minutes: Double = 0) throws -> HealthSample {
        .quantity(
            try HealthQuantitySample(
                type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: count),
                date: noon.addingTimeInterval(minutes * 60), source: StoreUnderTest.appSource))
    }

    func persisted(_ anchor: HealthQueryAnchor) throws -> HealthQueryAnchor {
        try JSONDecoder().decode(HealthQueryAnchor.self, from: JSONEncoder().encode(anchor))
    }

    func authorizedFixture() async throws -> BridgeFixture {
        let fixture = BridgeFixture()
        try await fixture.store.requestAuthorization(toShare: [.stepCount], read: [.stepCount])
        return fixture
    }

    @Test func aPersistedAnchorResumesInANewStoreWithOnlyLaterChanges() async throws {
        let fixture = try await authorizedFixture()
        let first = try steps(10), second = try steps(20, minutes: 1)
        try await fixture.store.save([first, second])
        let anchor = try await fixture.store.changes(of: .stepCount, since: nil).newAnchor
        let restored = try persisted(anchor)
        #expect(restored == anchor)

        let relaunched = fixture.relaunched()
        let later = try steps(30, minutes: 2)
        try await relaunched.save(later)
        try await relaunched.delete(first)
        let changes = try await relaunched.changes(of: .stepCount, since: restored)
        #expect(changes.samples == [later])
        // The new store has not seen `first`, so the tombstone names HealthKit's UUID (a known gap).
        #expect(changes.deletedObjects.count == 1)
        #expect(changes.newAnchor > restored)

        let again = try await fixture.relaunched().changes(of: .stepCount, since: try persisted(changes.newAnchor))
        #expect(again.samples.isEmpty && again.deletedObjects.isEmpty)
    }

    @Test func aPayloadThatIsNotAnArchivedAnchorIsATypedError() async throws {
        let fixture = try await authorizedFixture()
        try await fixture.store.save(try steps(10))
        let garbage = HealthQueryAnchor(sequence: 1, opaque: Data("not an archive".utf8))
        let otherClass = HealthQueryAnchor(
            sequence: 2,
            opaque: try NSKeyedArchiver.archivedData(withRootObject: NSString("anchor"), requiringSecureCoding: true))
        for anchor in [garbage, otherClass] {
            let executed = fixture.calls("execute")
            await #expect(throws: HealthStoreError.unreadableAnchor(anchor)) {
                try await fixture.relaunched().changes(of: .stepCount, since: anchor)
            }
            #expect(fixture.calls("execute") == executed)
        }
    }

    @Test func aBareNumberAnchorFromAnEarlierLaunchReadsEverythingAgain() async throws {
        let fixture = try await authorizedFixture()
        let sample = try steps(10)
        try await fixture.store.save(sample)
        let old = try JSONDecoder().decode(HealthQueryAnchor.self, from: Data("7".utf8))
        #expect(try await fixture.relaunched().changes(of: .stepCount, since: old).samples == [sample])
    }

    @Test func theShimAnchorRoundTripsThroughASecureKeyedArchive() throws {
        let anchor = HKQueryAnchor(fromValue: 42)
        let data = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
        let restored = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
        #expect(restored == anchor)
        #expect(restored != HKQueryAnchor(fromValue: 41))
        #expect(HKQueryAnchor.supportsSecureCoding)
    }

    @Test func aSyncAfterARelaunchSendsOnlyWhatIsNew() async throws {
        let fixture = try await authorizedFixture()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anchor-relaunch-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outbox = try OutboxTransport(directory: folder.appendingPathComponent("outbox"))
        let anchors = AnchorStore(fileURL: folder.appendingPathComponent("state.json"))
        func engine(_ store: HealthKitStore) throws -> SyncEngine {
            try SyncEngine(
                store: store, types: [.stepCount], anchorStore: anchors, transport: outbox, deviceID: "device-1",
                tempFolder: folder.appendingPathComponent("tmp"))
        }
        try await fixture.store.save([try steps(10), try steps(20, minutes: 1)])
        let first = try await engine(fixture.store).sync()
        #expect(first.samples["stepCount"] == 2)

        let unchanged = try await engine(fixture.relaunched()).sync()
        #expect(unchanged.batches == 0)

        let relaunched = fixture.relaunched()
        try await relaunched.save(try steps(30, minutes: 2))
        let later = try await engine(relaunched).sync()
        #expect(later.samples["stepCount"] == 1)
        #expect(try outbox.storedBatchIDs().count == 2)
    }
}
