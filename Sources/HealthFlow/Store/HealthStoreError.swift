import Foundation

/// Why a health store refused a request — HealthKit's `HKError` codes, with a payload naming the type,
/// the object or the argument at fault.
///
/// Where HealthKit raises an exception (and crashes the app) — an empty authorization request, a read-only
/// type in the share set, a query executed twice — our stores deliver one of these instead. Every case maps
/// to one of HealthKit's codes through ``code``, so code written against HealthKit's error codes keeps
/// working:
///
/// ```swift
/// store.save(.quantity(sample)) { success, error in
///     switch error as? HealthStoreError {
///     case .authorizationNotDetermined(let type)?: askForPermission(type)
///     case .authorizationDenied?: showSettingsHint()
///     case let error? where error.code == .invalidArgument: report(error.description)
///     default: break
///     }
/// }
/// ```
///
/// Descriptions name the offending thing and never include health values:
/// `"not authorized to share stepCount: the person denied it"`.
public enum HealthStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// HealthKit's error codes (`HKError.Code`), with their raw values.
    public enum Code: Int, CaseIterable, Hashable, Sendable, Codable {
        /// An error with no better code (`errorCodeNoError`/unknown, 0).
        case unknown = 0
        /// Health data is not available on this device (1).
        case healthDataUnavailable = 1
        /// Health data is restricted, for example by a device-management profile (2).
        case healthDataRestricted = 2
        /// A caller passed an argument the store cannot accept (3) — where HealthKit usually crashes.
        case invalidArgument = 3
        /// The person denied sharing the type (4).
        case authorizationDenied = 4
        /// The app never asked to share the type (5).
        case authorizationNotDetermined = 5
        /// The store's database is not accessible, for example while the device is locked (6).
        case databaseInaccessible = 6
        /// The person dismissed the permission sheet (7).
        case userCanceled = 7
        /// Authorization the app requires was denied (10).
        case requiredAuthorizationDenied = 10
        /// No data is available for the request (11).
        case noData = 11
        /// A request carried more data than the store accepts (13).
        case dataSizeExceeded = 13
    }

    /// Which `Info.plist` usage description an authorization request needs.
    public enum UsageDescription: String, CaseIterable, Hashable, Sendable, Codable {
        /// `NSHealthShareUsageDescription`: why the app reads health data; needed to request read access.
        case share = "NSHealthShareUsageDescription"
        /// `NSHealthUpdateUsageDescription`: why the app writes health data; needed to request share access.
        case update = "NSHealthUpdateUsageDescription"
    }

    // MARK: Mirrors of HealthKit's codes

    /// An unexpected failure; `reason` says what happened (never health values).
    case unknown(reason: String)
    /// Health data is not available on this device; every store operation fails with this.
    case healthDataUnavailable
    /// Health data is restricted on this device.
    case healthDataRestricted
    /// The store's database cannot be read or written at the moment.
    case databaseInaccessible
    /// The person dismissed the permission sheet without answering.
    case userCanceled
    /// Saving or deleting a type the person denied sharing.
    case authorizationDenied(HealthObjectType)
    /// Saving or deleting a type the app never asked to share, or reading a characteristic it never asked
    /// to read.
    case authorizationNotDetermined(HealthObjectType)
    /// Authorization the app declared as required was denied.
    case requiredAuthorizationDenied(HealthObjectType)
    /// No data: a characteristic that is not set, or that the app may not read (the two look the same); or a
    /// ``HealthStatisticsQuery`` that matched no sample the app can see (HealthKit's `errorNoData`).
    case noData(HealthObjectType)
    /// A request carried more data than the store accepts.
    case dataSizeExceeded(limit: Int, actual: Int)

    // MARK: Invalid arguments (code 3)

    /// A sample broke one of the sample rules when the store re-checked it.
    case invalidSample(ValidationError)
    /// An object with this UUID is already in the store, or the same UUID appears twice in one batch.
    case duplicateUUID(UUID)
    /// No object with this UUID is in the store (delete).
    case objectNotFound(UUID)
    /// The object was saved by another app or device; an app may delete only what it saved.
    case notSavedByThisApp(UUID, source: HealthSource)
    /// The sample is a member of a stored correlation; delete the correlation instead.
    case memberOfCorrelation(UUID, correlation: UUID)
    /// The sample's source is not the saving app: samples an app saves must carry its own source.
    case sourceMismatch(UUID, expected: String, actual: String)
    /// An authorization request with both sets empty.
    case emptyAuthorizationRequest
    /// A share request (or a save) for a type apps may not write: read-only types, characteristics,
    /// activity summaries, electrocardiograms.
    case typeNotShareable(HealthObjectType)
    /// A correlation type in an authorization request; authorize its member types instead.
    case correlationTypeNotAuthorizable(HealthObjectType)
    /// The app configuration lacks the usage description the request needs.
    case missingUsageDescription(UsageDescription)
    /// A query over a type that has no samples of the kind the query returns (a characteristic, say).
    case unsupportedQueryType(HealthObjectType, query: String)
    /// A negative query limit.
    case invalidLimit(Int)
    /// A query object was executed a second time; make a new query instead.
    case queryAlreadyExecuted(query: String)
    /// A statistics option that does not fit the type's aggregation style (an average of a cumulative
    /// type, a sum of a discrete one), or statistics over a type that is not a quantity type.
    case incompatibleStatisticsOption(HealthObjectType, option: String)
    /// A statistics query the statistics engine refused for a reason other than its options: interval
    /// components that do not advance the calendar, a reversed or non-finite date range, more intervals
    /// than a collection computes, a date the calendar cannot handle.
    case invalidStatisticsRequest(StatisticsError)
    /// An activity summary query whose days the summaries cannot be derived for (a range too long to
    /// compute, a day the calendar cannot express).
    case invalidActivitySummaryRequest(ActivitySummaryError)
    /// An anchor carrying a bridge store's own anchor (see ``HealthQueryAnchor``) that the store cannot read:
    /// damaged, or from another kind of store. Start again from `nil`.
    case unreadableAnchor(HealthQueryAnchor)

    /// The HealthKit code this error maps to.
    public var code: Code {
        switch self {
        case .unknown: .unknown
        case .healthDataUnavailable: .healthDataUnavailable
        case .healthDataRestricted: .healthDataRestricted
        case .databaseInaccessible: .databaseInaccessible
        case .userCanceled: .userCanceled
        case .authorizationDenied: .authorizationDenied
        case .authorizationNotDetermined: .authorizationNotDetermined
        case .requiredAuthorizationDenied: .requiredAuthorizationDenied
        case .noData: .noData
        case .dataSizeExceeded: .dataSizeExceeded
        case .invalidSample, .duplicateUUID, .objectNotFound, .notSavedByThisApp, .memberOfCorrelation,
            .sourceMismatch, .emptyAuthorizationRequest, .typeNotShareable, .correlationTypeNotAuthorizable,
            .missingUsageDescription, .unsupportedQueryType, .invalidLimit, .queryAlreadyExecuted,
            .incompatibleStatisticsOption, .invalidStatisticsRequest, .invalidActivitySummaryRequest,
            .unreadableAnchor:
            .invalidArgument
        }
    }

    /// A readable message naming the type, object or argument at fault (never a health value).
    public var description: String {
        switch self {
        case .unknown(let reason):
            return "unknown health store error: \(reason)"
        case .healthDataUnavailable:
            return "health data is not available on this device"
        case .healthDataRestricted:
            return "health data is restricted on this device"
        case .databaseInaccessible:
            return "the health database is not accessible"
        case .userCanceled:
            return "the person dismissed the authorization sheet"
        case .authorizationDenied(let type):
            return "not authorized to share \(type): the person denied it"
        case .authorizationNotDetermined(let type):
            return "not authorized for \(type): authorization was never requested"
        case .requiredAuthorizationDenied(let type):
            return "required authorization for \(type) was denied"
        case .noData(let type):
            return "no data available for \(type)"
        case .dataSizeExceeded(let limit, let actual):
            return "request size \(actual) exceeds the limit \(limit)"
        case .invalidSample(let error):
            return "invalid sample: \(error.description)"
        case .duplicateUUID(let uuid):
            return "an object with UUID \(uuid.uuidString) already exists"
        case .objectNotFound(let uuid):
            return "no object with UUID \(uuid.uuidString) to delete"
        case .notSavedByThisApp(let uuid, let source):
            return "object \(uuid.uuidString) was saved by \(source); an app may delete only objects it saved"
        case .memberOfCorrelation(let uuid, let correlation):
            return "sample \(uuid.uuidString) belongs to correlation \(correlation.uuidString); delete the correlation"
        case .sourceMismatch(let uuid, let expected, let actual):
            return "sample \(uuid.uuidString) has source \(actual); samples this app saves must have source \(expected)"
        case .emptyAuthorizationRequest:
            return "an authorization request needs at least one type to share or read"
        case .typeNotShareable(let type):
            return "\(type) is read-only: apps may not request to share it"
        case .correlationTypeNotAuthorizable(let type):
            let members =
                type.correlationMemberTypes.count <= 4
                ? type.correlationMemberTypes.map(\.identifier).joined(separator: ", ") : "its member types"
            return "\(type) is a correlation type and cannot be authorized; request \(members) instead"
        case .missingUsageDescription(let key):
            let purpose = key == .update ? "share (write)" : "read"
            return "requesting to \(purpose) health data needs \(key.rawValue) in the app configuration"
        case .unsupportedQueryType(let type, let query):
            return "\(query) cannot query \(type), a \(type.kind.rawValue) type"
        case .invalidLimit(let limit):
            return "query limit must be 0 (no limit) or positive; got \(limit)"
        case .queryAlreadyExecuted(let query):
            return "\(query) has already been executed; a query object runs once"
        case .incompatibleStatisticsOption(let type, let option):
            guard let style = type.aggregationStyle else {
                return "statistics option \(option) needs a quantity type; \(type) is a \(type.kind.rawValue) type"
            }
            let kind = style.isCumulative ? "cumulative" : "discrete"
            return "statistics option \(option) is not compatible with \(kind) data type \(type)"
        case .invalidStatisticsRequest(let error):
            return "invalid statistics query: \(error.description)"
        case .invalidActivitySummaryRequest(let error):
            return "invalid activity summary query: \(error.description)"
        case .unreadableAnchor(let anchor):
            return "\(anchor) holds a store anchor this store cannot read; query from nil instead"
        }
    }
}

extension HealthStoreError: LocalizedError {
    /// The same text as ``description``, so `localizedDescription` reads well on every platform.
    public var errorDescription: String? { description }
}
