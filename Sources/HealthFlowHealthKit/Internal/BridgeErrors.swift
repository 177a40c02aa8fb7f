import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

/// HealthKit's error codes → HealthFlow's typed errors. `type` is the type the failed call concerned (the
/// first one, sorted by identifier, for calls about several).
enum BridgeErrors {
    static func healthFlow(_ error: any Error, type: HealthObjectType?) -> HealthStoreError {
        if let error = error as? HealthStoreError { return error }
        let nsError = error as NSError
        guard nsError.domain == HKErrorDomain, let code = HKError.Code(rawValue: nsError.code) else {
            return .unknown(reason: nsError.localizedDescription)
        }
        return healthFlow(code, message: nsError.localizedDescription, type: type ?? .activitySummary)
    }

    static func healthFlow(_ code: HKError.Code, message: String, type: HealthObjectType) -> HealthStoreError {
        switch code {
        case .errorHealthDataUnavailable: return .healthDataUnavailable
        case .errorHealthDataRestricted: return .healthDataRestricted
        case .errorAuthorizationDenied: return .authorizationDenied(type)
        case .errorAuthorizationNotDetermined: return .authorizationNotDetermined(type)
        case .errorDatabaseInaccessible: return .databaseInaccessible
        case .errorUserCanceled: return .userCanceled
        case .errorRequiredAuthorizationDenied: return .requiredAuthorizationDenied(type)
        case .errorNoData: return .noData(type)
        // HealthKit names no sizes: the limit and size are unknown here.
        case .errorDataSizeExceeded: return .dataSizeExceeded(limit: 0, actual: 0)
        // Invalid arguments are caught by HealthFlow's rules before HealthKit is called; one that HealthKit
        // still reports (a rule HealthFlow does not model) keeps HealthKit's message.
        case .errorInvalidArgument: return .unknown(reason: "HealthKit reported an invalid argument: \(message)")
        case .errorUnknown: return .unknown(reason: message)
        // Workout-session and guest-mode codes: no workout API in HealthFlow.
        default: return .unknown(reason: "HealthKit error \(code.rawValue): \(message)")
        }
    }
}
