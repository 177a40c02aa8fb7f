import FlowKit
import Foundation
import HealthFlow
import Testing

struct SaveDeleteTests {
    // MARK: Saving

    @Test func savingATypeNeverRequestedIsNotDetermined() async throws {
        let store = StoreFixture.store()
        let steps = try StoreFixture.sample()
        let outcome = await completion { store.save(steps, withCompletion: $0) }
        #expect(outcome.success == false)
        #expect(outcome.error == .authorizationNotDetermined(.stepCount))
        #expect(outcome.error?.code == .authorizationNotDetermined)
    }

    @Test func savingADeniedTypeIsDenied() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount], policy: .deny(share: [.stepCount]))
        let error = await storeError { try await store.save(try StoreFixture.sample()) }
        #expect(error == .authorizationDenied(.stepCount))
        #expect(error?.code == .authorizationDenied)
    }

    @Test func savingAReadOnlyTypeIsRefused() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.heartRate])
        let ecg = try HealthElectrocardiogram(
            start: Fixture.noon, end: Fixture.noon + 30, classification: .sinusRhythm, averageHeartRate: nil,
            samplingFrequency: nil, numberOfVoltageMeasurements: 0, source: Fixture.source)
        let error = await storeError { try await store.save(.electrocardiogram(ecg)) }
        #expect(error == .typeNotShareable(.electrocardiogram))
    }

    @Test func savedSamplesAreReadBack() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount, .sleepAnalysis])
        let steps = try StoreFixture.sample(.stepCount, 1200, duration: 3600)
        let sleep = HealthSample.category(
            try HealthCategorySample(
                SleepAnalysisValue.asleepDeep, start: Fixture.noon, end: Fixture.oneHourLater, source: Fixture.source))
        try await store.save([steps, sleep])
        #expect(try await store.samples(of: .stepCount) == [steps])
        #expect(try await store.samples(of: .sleepAnalysis) == [sleep])
    }

    @Test func aSecondSampleWithTheSameUUIDIsRefused() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let uuid = UUID()
        try await store.save(try StoreFixture.sample(uuid: uuid))
        let error = await storeError { try await store.save(try StoreFixture.sample(.stepCount, 5, uuid: uuid)) }
        #expect(error == .duplicateUUID(uuid))
        #expect(try await store.samples(of: .stepCount).count == 1)
    }

    @Test func theSameUUIDTwiceInOneBatchIsRefused() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let uuid = UUID()
        let error = await storeError {
            try await store.save([try StoreFixture.sample(uuid: uuid), try StoreFixture.sample(uuid: uuid)])
        }
        #expect(error == .duplicateUUID(uuid))
        #expect(try await store.samples(of: .stepCount).isEmpty)
    }

    @Test func aBatchIsAllOrNothing() async throws {
        let store = try await StoreFixture.authorizedStore(
            share: [.stepCount, .bodyMass], policy: .deny(share: [.bodyMass]))
        let good = try (0..<5).map { try StoreFixture.sample(start: Fixture.noon + Double($0)) }
        let denied = try StoreFixture.sample(.bodyMass, 70, unit: "kg")
        let error = await storeError { try await store.save(good + [denied]) }
        #expect(error == .authorizationDenied(.bodyMass))
        #expect(try await store.samples(of: .stepCount).isEmpty)
        let changes = try await store.changes(of: .stepCount, since: nil)
        #expect(changes.samples.isEmpty)
        try await store.save(good)
        #expect(try await store.samples(of: .stepCount) == good)
    }

    @Test func anEmptyBatchSucceedsAndChangesNothing() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let before = try await store.changes(of: .stepCount, since: nil)
        try await store.save([HealthSample]())
        try await store.delete([HealthSample]())
        #expect(try await store.changes(of: .stepCount, since: nil) == before)
    }

    @Test func aSampleFromAnotherSourceIsRefused() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let watchSteps = try StoreFixture.sample(source: Fixture.watch)
        let error = await storeError { try await store.save(watchSteps) }
        #expect(
            error
                == .sourceMismatch(
                    watchSteps.uuid, expected: Fixture.source.bundleIdentifier, actual: Fixture.watch.bundleIdentifier))
    }

    @Test func aCorrelationNeedsItsMemberTypesAndStoresItsMembers() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.bodyMass])
        let reading = try StoreFixture.bloodPressure()
        let error = await storeError { try await store.save(reading) }
        #expect(error == .authorizationNotDetermined(.bloodPressureDiastolic))

        try await store.requestAuthorization(toShare: [.bloodPressureSystolic], read: [.bloodPressureSystolic])
        try await store.save(reading)
        #expect(try await store.samples(of: .bloodPressure) == [reading])
        guard case .correlation(let correlation) = reading else { return }
        let systolic = try await store.samples(of: .bloodPressureSystolic)
        #expect(systolic == correlation.objects(for: .bloodPressureSystolic).map(HealthSample.quantity))
        // A member's UUID is taken too.
        let member = try #require(correlation.objects.first)
        let duplicate = await storeError { try await store.save(.quantity(member)) }
        #expect(duplicate == .duplicateUUID(member.uuid))
    }

    @Test func unavailableHealthDataRefusesSaves() async throws {
        let store = StoreFixture.store(available: false)
        let error = await storeError { try await store.save(try StoreFixture.sample()) }
        #expect(error == .healthDataUnavailable)
    }

    @Test func ingestKeepsUUIDsUniqueAllOrNothing() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let first = try StoreFixture.sample(source: Fixture.watch)
        try store.ingest([first])
        let fresh = try StoreFixture.sample(source: Fixture.watch)
        #expect(throws: HealthStoreError.duplicateUUID(first.uuid)) { try store.ingest([fresh, first]) }
        #expect(try await store.samples(of: .stepCount) == [first])
    }

    // MARK: Deleting

    @Test func deletingLeavesATombstoneWithSyncMetadata() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.dietaryWater])
        let water = try StoreFixture.sample(
            .dietaryWater, 250, unit: "mL", metadata: [.syncIdentifier: "drink-1", .syncVersion: 1])
        try await store.save(water)
        let before = try await store.changes(of: .dietaryWater, since: nil)
        try await store.delete(water)
        #expect(try await store.samples(of: .dietaryWater).isEmpty)
        let after = try await store.changes(of: .dietaryWater, since: before.newAnchor)
        #expect(after.samples.isEmpty)
        #expect(
            after.deletedObjects == [
                HealthDeletedObject(
                    uuid: water.uuid, metadata: [.syncIdentifier: "drink-1", .syncVersion: 1])
            ])
        #expect(before.newAnchor < after.newAnchor)
    }

    @Test func deletingAnotherSourcesSampleIsRefused() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.heartRate])
        let watchReading = try StoreFixture.sample(.heartRate, 70, unit: "count/min", source: Fixture.watch)
        try store.ingest([watchReading])
        let error = await storeError { try await store.delete(watchReading) }
        #expect(error == .notSavedByThisApp(watchReading.uuid, source: Fixture.watch))
        #expect(try await store.samples(of: .heartRate) == [watchReading])
    }

    @Test func deletingNeedsSharingAuthorized() async throws {
        // A sample with the app's source that the app may not (yet) write: from a previous install, say.
        let readOnly = StoreFixture.store()
        try readOnly.ingest([try StoreFixture.sample(.bodyMass, 70, unit: "kg")])
        let bodyMass = try #require(try await readOnly.samples(of: .bodyMass).first)
        let error = await storeError { try await readOnly.delete(bodyMass) }
        #expect(error == .authorizationNotDetermined(.bodyMass))
    }

    @Test func deletingAnUnknownUUIDIsRefused() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let ghost = try StoreFixture.sample()
        #expect(await storeError { try await store.delete(ghost) } == .objectNotFound(ghost.uuid))
        try await store.save(ghost)
        try await store.delete(ghost)
        #expect(await storeError { try await store.delete(ghost) } == .objectNotFound(ghost.uuid))
    }

    @Test func deleteBatchIsAllOrNothing() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.stepCount])
        let mine = try (0..<3).map { try StoreFixture.sample(start: Fixture.noon + Double($0)) }
        let watch = try StoreFixture.sample(source: Fixture.watch)
        try await store.save(mine)
        try store.ingest([watch])
        let error = await storeError { try await store.delete(mine + [watch]) }
        #expect(error == .notSavedByThisApp(watch.uuid, source: Fixture.watch))
        #expect(try await store.samples(of: .stepCount).count == 4)
        let twice = await storeError { try await store.delete([mine[0], mine[0]]) }
        #expect(twice == .duplicateUUID(mine[0].uuid))
        try await store.delete(mine)
        #expect(try await store.samples(of: .stepCount) == [watch])
    }

    @Test func deletingACorrelationDeletesItsMembersButAMemberAloneIsRefused() async throws {
        let store = try await StoreFixture.authorizedStore(share: [.bloodPressureSystolic, .bloodPressureDiastolic])
        let reading = try StoreFixture.bloodPressure()
        try await store.save(reading)
        guard case .correlation(let correlation) = reading else { return }
        let systolic = try #require(correlation.objects(for: .bloodPressureSystolic).first)
        let error = await storeError { try await store.delete(.quantity(systolic)) }
        #expect(error == .memberOfCorrelation(systolic.uuid, correlation: correlation.uuid))

        let anchor = try await store.changes(of: .bloodPressureSystolic, since: nil).newAnchor
        try await store.delete(reading)
        #expect(try await store.samples(of: .bloodPressure).isEmpty)
        #expect(try await store.samples(of: .bloodPressureSystolic).isEmpty)
        #expect(try await store.samples(of: .bloodPressureDiastolic).isEmpty)
        let tombstones = try await store.changes(of: .bloodPressureSystolic, since: anchor).deletedObjects
        #expect(tombstones.map(\.uuid) == [systolic.uuid])
    }
}
