import Foundation
import HealthFlow
import Testing

struct HealthStoreErrorTests {
    @Test func codesHaveHealthKitsRawValues() {
        let expected: [HealthStoreError.Code: Int] = [
            .unknown: 0, .healthDataUnavailable: 1, .healthDataRestricted: 2, .invalidArgument: 3,
            .authorizationDenied: 4, .authorizationNotDetermined: 5, .databaseInaccessible: 6, .userCanceled: 7,
            .requiredAuthorizationDenied: 10, .noData: 11, .dataSizeExceeded: 13,
        ]
        #expect(HealthStoreError.Code.allCases.count == expected.count)
        for (code, raw) in expected { #expect(code.rawValue == raw) }
    }

    @Test func everyCaseMapsToItsCode() {
        let uuid = UUID()
        let cases: [(HealthStoreError, HealthStoreError.Code)] = [
            (.unknown(reason: "x"), .unknown), (.healthDataUnavailable, .healthDataUnavailable),
            (.healthDataRestricted, .healthDataRestricted), (.databaseInaccessible, .databaseInaccessible),
            (.userCanceled, .userCanceled), (.authorizationDenied(.stepCount), .authorizationDenied),
            (.authorizationNotDetermined(.stepCount), .authorizationNotDetermined),
            (.requiredAuthorizationDenied(.stepCount), .requiredAuthorizationDenied), (.noData(.bloodType), .noData),
            (.dataSizeExceeded(limit: 1, actual: 2), .dataSizeExceeded),
            (.invalidSample(.missingMetadata(.insulinDelivery, key: .insulinDeliveryReason)), .invalidArgument),
            (.duplicateUUID(uuid), .invalidArgument), (.objectNotFound(uuid), .invalidArgument),
            (.notSavedByThisApp(uuid, source: Fixture.watch), .invalidArgument),
            (.memberOfCorrelation(uuid, correlation: uuid), .invalidArgument),
            (.sourceMismatch(uuid, expected: "a", actual: "b"), .invalidArgument),
            (.emptyAuthorizationRequest, .invalidArgument), (.typeNotShareable(.nikeFuel), .invalidArgument),
            (.correlationTypeNotAuthorizable(.food), .invalidArgument),
            (.missingUsageDescription(.share), .invalidArgument),
            (.unsupportedQueryType(.bloodType, query: "HealthSampleQuery(bloodType)"), .invalidArgument),
            (.invalidLimit(-1), .invalidArgument), (.queryAlreadyExecuted(query: "q"), .invalidArgument),
            (.incompatibleStatisticsOption(.stepCount, option: "discreteAverage"), .invalidArgument),
            (.invalidStatisticsRequest(.tooManyIntervals(limit: 3)), .invalidArgument),
            (.invalidActivitySummaryRequest(.invalidValue(field: "standHoursGoal", value: -1)), .invalidArgument),
            (.unreadableAnchor(HealthQueryAnchor(sequence: 3, opaque: Data([1]))), .invalidArgument),
        ]
        for (error, code) in cases { #expect(error.code == code, "\(error)") }
    }

    @Test func descriptionsNameTheOffendingThing() {
        let uuid = UUID()
        #expect(
            HealthStoreError.authorizationDenied(.bodyMass).description
                == "not authorized to share bodyMass: the person denied it")
        #expect(
            HealthStoreError.typeNotShareable(.appleExerciseTime).description
                == "appleExerciseTime is read-only: apps may not request to share it")
        #expect(
            HealthStoreError.correlationTypeNotAuthorizable(.bloodPressure).description
                == "bloodPressure is a correlation type and cannot be authorized; request bloodPressureSystolic, "
                + "bloodPressureDiastolic instead")
        #expect(
            HealthStoreError.missingUsageDescription(.update).description.contains("NSHealthUpdateUsageDescription"))
        #expect(HealthStoreError.duplicateUUID(uuid).description.contains(uuid.uuidString))
        #expect(HealthStoreError.notSavedByThisApp(uuid, source: Fixture.watch).description.contains("Apple Watch"))
        #expect(
            HealthStoreError.invalidSample(.missingMetadata(.insulinDelivery, key: .insulinDeliveryReason))
                .description == "invalid sample: insulinDelivery requires metadata HKInsulinDeliveryReason")
        #expect(
            HealthStoreError.incompatibleStatisticsOption(.stepCount, option: "discreteAverage").description
                == "statistics option discreteAverage is not compatible with cumulative data type stepCount")
        #expect(
            HealthStoreError.incompatibleStatisticsOption(.heartRate, option: "cumulativeSum").description
                == "statistics option cumulativeSum is not compatible with discrete data type heartRate")
        #expect(
            HealthStoreError.invalidStatisticsRequest(.tooManyIntervals(limit: 3)).description
                == "invalid statistics query: the range holds more than 3 intervals")
        #expect(
            HealthStoreError.invalidActivitySummaryRequest(.invalidValue(field: "standHoursGoal", value: -1))
                .description.hasPrefix("invalid activity summary query: "))
        #expect(
            HealthStoreError.queryAlreadyExecuted(query: "HealthSampleQuery(height)").description
                == "HealthSampleQuery(height) has already been executed; a query object runs once")
        #expect(
            HealthStoreError.unreadableAnchor(HealthQueryAnchor(sequence: 3, opaque: Data([1]))).description
                == "anchor(3) holds a store anchor this store cannot read; query from nil instead")
    }

    @Test func localizedDescriptionIsTheDescription() {
        let error: any Error = HealthStoreError.userCanceled
        #expect(error.localizedDescription == "the person dismissed the authorization sheet")
    }
}
