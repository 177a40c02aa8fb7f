import FlowKit
import Foundation
import HealthFlow
import Testing

struct AuthorizationTests {
    // MARK: Validation

    @Test func emptyRequestIsAnInvalidArgument() async {
        let store = StoreFixture.store()
        let outcome = await completion { store.requestAuthorization(toShare: [], read: [], completion: $0) }
        #expect(outcome.success == false)
        #expect(outcome.error == .emptyAuthorizationRequest)
        #expect(outcome.error?.code == .invalidArgument)
    }

    @Test(arguments: [
        HealthObjectType.appleExerciseTime, .appleStandTime, .appleStandHour, .nikeFuel, .walkingHeartRateAverage,
        .activitySummary, .dateOfBirth, .biologicalSex, .electrocardiogram,
    ])
    func readOnlyTypeInShareSetIsRejected(type: HealthObjectType) async {
        let store = StoreFixture.store()
        let outcome = await completion {
            store.requestAuthorization(toShare: [type, .stepCount], read: [], completion: $0)
        }
        #expect(outcome.error == .typeNotShareable(type))
        #expect(store.authorizationStatus(for: .stepCount) == .notDetermined)
    }

    @Test func readOnlyTypesMayBeRead() async {
        let store = StoreFixture.store()
        let outcome = await completion {
            store.requestAuthorization(
                toShare: [], read: [.appleExerciseTime, .dateOfBirth, .electrocardiogram], completion: $0)
        }
        #expect(outcome.success)
        #expect(outcome.error == nil)
    }

    @Test(arguments: [HealthObjectType.bloodPressure, .food])
    func correlationTypesAreRejectedInEitherSet(type: HealthObjectType) async {
        let store = StoreFixture.store()
        let sharing = await completion { store.requestAuthorization(toShare: [type], read: [], completion: $0) }
        let reading = await completion { store.requestAuthorization(toShare: [], read: [type], completion: $0) }
        #expect(sharing.error == .correlationTypeNotAuthorizable(type))
        #expect(reading.error == .correlationTypeNotAuthorizable(type))
    }

    @Test func sharingNeedsTheUpdateUsageDescription() async {
        var app = StoreFixture.app
        app.healthUpdateUsageDescription = "   "
        let store = StoreFixture.store(configuration: app)
        let sharing = await completion { store.requestAuthorization(toShare: [.stepCount], read: [], completion: $0) }
        let reading = await completion { store.requestAuthorization(toShare: [], read: [.stepCount], completion: $0) }
        #expect(sharing.error == .missingUsageDescription(.update))
        #expect(reading.success)
    }

    @Test func readingNeedsTheShareUsageDescription() async {
        var app = StoreFixture.app
        app.healthShareUsageDescription = nil
        let store = StoreFixture.store(configuration: app)
        let reading = await completion { store.requestAuthorization(toShare: [], read: [.height], completion: $0) }
        let sharing = await completion { store.requestAuthorization(toShare: [.height], read: [], completion: $0) }
        #expect(reading.error == .missingUsageDescription(.share))
        #expect(sharing.success)
    }

    @Test func unavailableHealthDataFailsEveryRequest() async {
        let store = StoreFixture.store(available: false)
        let outcome = await completion { store.requestAuthorization(toShare: [.stepCount], read: [], completion: $0) }
        #expect(outcome.error == .healthDataUnavailable)
        #expect(store.isHealthDataAvailable == false)
    }

    // MARK: Policies

    @Test func grantAllAuthorizesEverySharedType() async throws {
        let store = StoreFixture.store(policy: .grantAll)
        #expect(store.authorizationStatus(for: .bodyMass) == .notDetermined)
        try await store.requestAuthorization(toShare: [.bodyMass, .stepCount], read: [.height])
        #expect(store.authorizationStatus(for: .bodyMass) == .sharingAuthorized)
        #expect(store.authorizationStatus(for: .stepCount) == .sharingAuthorized)
    }

    @Test func denySomeDeniesOnlyThoseTypes() async throws {
        let store = StoreFixture.store(policy: .deny(share: [.bodyMass]))
        try await store.requestAuthorization(toShare: [.bodyMass, .stepCount], read: [])
        #expect(store.authorizationStatus(for: .bodyMass) == .sharingDenied)
        #expect(store.authorizationStatus(for: .stepCount) == .sharingAuthorized)
    }

    @Test func denyAllAnswersTheSheetWithNo() async throws {
        let store = StoreFixture.store(policy: .denyAll)
        try await store.requestAuthorization(toShare: [.bodyMass], read: [])
        #expect(store.authorizationStatus(for: .bodyMass) == .sharingDenied)
    }

    @Test func scriptedPolicyIsAskedOnlyAboutUnansweredTypes() async throws {
        let asked = EventLog<AuthorizationRequest>()
        let store = StoreFixture.store(
            policy: .scripted { request in
                asked.append(request)
                return request.granting(exceptShare: [.height])
            })
        try await store.requestAuthorization(toShare: [.height, .bodyMass], read: [.height])
        try await store.requestAuthorization(toShare: [.height, .bodyMass, .stepCount], read: [.height])
        try await store.requestAuthorization(toShare: [.stepCount], read: [.height])  // nothing new: no sheet
        #expect(
            asked.events == [
                AuthorizationRequest(share: [.height, .bodyMass], read: [.height]),
                AuthorizationRequest(share: [.stepCount], read: []),
            ])
        #expect(store.authorizationStatus(for: .height) == .sharingDenied)
        #expect(store.authorizationStatus(for: .bodyMass) == .sharingAuthorized)
        #expect(store.authorizationStatus(for: .stepCount) == .sharingAuthorized)
    }

    @Test func userCancelFailsAndRecordsNothing() async {
        let store = StoreFixture.store(policy: .userCancels)
        let outcome = await completion {
            store.requestAuthorization(toShare: [.bodyMass], read: [.height], completion: $0)
        }
        #expect(outcome.success == false)
        #expect(outcome.error == .userCanceled)
        #expect(outcome.error?.code == .userCanceled)
        #expect(store.authorizationStatus(for: .bodyMass) == .notDetermined)
        let status = await withCheckedContinuation { continuation in
            store.getRequestStatusForAuthorization(toShare: [.bodyMass], read: [.height]) { status, _ in
                continuation.resume(returning: status)
            }
        }
        #expect(status == .shouldRequest)
    }

    @Test func statusReflectsSharingOnly() async throws {
        let store = StoreFixture.store(policy: .grantAll)
        try await store.requestAuthorization(toShare: [], read: [.heartRate])
        #expect(store.authorizationStatus(for: .heartRate) == .notDetermined)
        let denyingReads = StoreFixture.store(policy: .deny(read: [.bodyMass]))
        try await denyingReads.requestAuthorization(toShare: [.bodyMass], read: [.bodyMass])
        #expect(denyingReads.authorizationStatus(for: .bodyMass) == .sharingAuthorized)
    }

    @Test func readDenialIsHiddenButTheAppsOwnSamplesStayVisible() async throws {
        let store = StoreFixture.store(policy: .deny(read: [.heartRate]))
        try await store.requestAuthorization(toShare: [.heartRate], read: [.heartRate, .stepCount])
        let watchReading = try StoreFixture.sample(.heartRate, 72, unit: "count/min", source: Fixture.watch)
        let watchSteps = try StoreFixture.sample(.stepCount, 500, source: Fixture.watch)
        try store.ingest([watchReading, watchSteps])
        let own = try StoreFixture.sample(.heartRate, 80, unit: "count/min")
        try await store.save(own)

        let heartRates = try await store.samples(of: .heartRate)
        #expect(heartRates == [own])  // the watch's reading is hidden, with no error
        let steps = try await store.samples(of: .stepCount)
        #expect(steps == [watchSteps])  // reading steps was allowed
    }

    @Test func askingForSystolicPullsInDiastolic() async throws {
        let asked = EventLog<AuthorizationRequest>()
        let store = StoreFixture.store(
            policy: .scripted {
                asked.append($0); return $0.grantingAll
            })
        try await store.requestAuthorization(toShare: [.bloodPressureSystolic], read: [.bloodPressureDiastolic])
        let both: Set<HealthObjectType> = [.bloodPressureSystolic, .bloodPressureDiastolic]
        #expect(asked.events == [AuthorizationRequest(share: both, read: both)])
        #expect(store.authorizationStatus(for: .bloodPressureDiastolic) == .sharingAuthorized)
        try await store.save(try StoreFixture.bloodPressure())
    }

    @Test func bloodPressureIsOneSwitchOnTheSheet() async throws {
        let store = StoreFixture.store(policy: .scripted { _ in .answered(share: [.bloodPressureSystolic], read: []) })
        try await store.requestAuthorization(toShare: [.bloodPressureSystolic, .bloodPressureDiastolic], read: [])
        #expect(store.authorizationStatus(for: .bloodPressureSystolic) == .sharingDenied)
        #expect(store.authorizationStatus(for: .bloodPressureDiastolic) == .sharingDenied)
    }

    @Test func requestStatusTurnsUnnecessaryOnceAnswered() async throws {
        let store = StoreFixture.store(policy: .denyAll)
        #expect(try await store.statusForAuthorizationRequest(toShare: [.height], read: [.bodyMass]) == .shouldRequest)
        try await store.requestAuthorization(toShare: [.height], read: [.bodyMass])
        #expect(try await store.statusForAuthorizationRequest(toShare: [.height], read: [.bodyMass]) == .unnecessary)
        #expect(try await store.statusForAuthorizationRequest(toShare: [.height], read: [.heartRate]) == .shouldRequest)
    }

    @Test func requestStatusOfAnInvalidRequestIsUnknownWithTheError() async {
        let store = StoreFixture.store()
        let (status, error) = await withCheckedContinuation { continuation in
            store.getRequestStatusForAuthorization(toShare: [.bloodPressure], read: []) { status, error in
                continuation.resume(returning: (status, error as? HealthStoreError))
            }
        }
        #expect(status == .unknown)
        #expect(error == .correlationTypeNotAuthorizable(.bloodPressure))
    }

    // MARK: Characteristics

    @Test func characteristicsNeedAReadRequestAndHideDenial() async throws {
        let me = HealthCharacteristics(
            dateOfBirth: DateComponents(year: 1990, month: 4, day: 12), biologicalSex: .female, bloodType: .oPositive,
            fitzpatrickSkinType: .typeIII, wheelchairUse: .no, activityMoveMode: .appleMoveTime)
        let store = StoreFixture.store(policy: .deny(read: [.bloodType, .dateOfBirth]), characteristics: me)
        #expect(throws: HealthStoreError.authorizationNotDetermined(.biologicalSex)) { try store.biologicalSex() }
        try await store.requestAuthorization(
            toShare: [],
            read: [.dateOfBirth, .biologicalSex, .bloodType, .fitzpatrickSkinType, .wheelchairUse, .activityMoveMode])
        #expect(try store.biologicalSex() == .female)
        #expect(try store.fitzpatrickSkinType() == .typeIII)
        #expect(try store.wheelchairUse() == .no)
        #expect(try store.activityMoveMode() == .appleMoveTime)
        #expect(try store.bloodType() == .notSet)  // denied reads look like "not set"
        #expect(throws: HealthStoreError.noData(.dateOfBirth)) { try store.dateOfBirthComponents() }
    }

    @Test func dateOfBirthIsReadableOnceAllowed() async throws {
        let me = HealthCharacteristics(dateOfBirth: DateComponents(year: 1990, month: 4, day: 12))
        let store = StoreFixture.store(characteristics: me)
        try await store.requestAuthorization(toShare: [], read: [.dateOfBirth, .bloodType])
        #expect(try store.dateOfBirthComponents() == DateComponents(year: 1990, month: 4, day: 12))
        #expect(try store.bloodType() == .notSet)
    }
}
