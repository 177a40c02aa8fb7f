import Foundation
import HealthFlow

/// Authorization requests HealthKit refuses with an exception.
enum ShimAuthorization {
    static func exceptionReason(
        share: Set<HealthObjectType>, read: Set<HealthObjectType>, configuration: HealthAppConfiguration
    ) -> String? {
        do {
            _ = try AuthorizationRules.validate(share: share, read: read, configuration: configuration)
            return nil
        } catch {
            switch error {
            case .typeNotShareable(let type):
                return "Authorization to share the following types is disallowed: \(type.healthKitIdentifier)"
            case .correlationTypeNotAuthorizable(let type):
                return "Authorization to read or share the following types is disallowed: "
                    + type.healthKitIdentifier
            case .missingUsageDescription(let key):
                return "\(key.rawValue) must be set in the app's Info.plist in order to request authorization"
            default:
                return nil  // e.g. an empty request: an error, not an exception
            }
        }
    }
}

/// Statistics options HealthKit refuses with an exception.
enum ShimStatisticsRules {
    static func exceptionReason(type: HKQuantityType, options: HKStatisticsOptions) -> String? {
        do {
            try options.healthFlowOptions.validate(for: type.healthFlowType)
            return nil
        } catch {
            let kind = type.healthFlowType.aggregationStyle?.isCumulative == true ? "cumulative" : "discrete"
            return "Statistics option \(options.rawValue) is not compatible with \(kind) data type "
                + type.identifier
        }
    }
}

/// Query reuse.
enum ShimQueryRules {
    static func executedTwiceReason(_ query: HKQuery) -> String {
        "You cannot start a query that is already active or has been stopped: \(query)"
    }
}

/// Sample re-stamping: HealthKit sets the saving app as the source of what it saves.
enum ShimSaving {
    static func stamped(_ sample: HealthSample, source: HealthSource) throws(ValidationError) -> HealthSample {
        switch sample {
        case .quantity(let sample):
            return .quantity(try stamped(sample, source: source))
        case .category(let sample):
            return .category(
                try HealthCategorySample(
                    type: sample.type, value: sample.value, start: sample.startDate, end: sample.endDate,
                    source: source, metadata: sample.metadata, uuid: sample.uuid))
        case .correlation(let correlation):
            var members = Set<HealthQuantitySample>()
            for member in correlation.objects { members.insert(try stamped(member, source: source)) }
            return .correlation(
                try HealthCorrelation(
                    type: correlation.type, start: correlation.startDate, end: correlation.endDate, objects: members,
                    source: source, metadata: correlation.metadata, uuid: correlation.uuid))
        case .electrocardiogram:
            return sample
        case .workout(let workout):
            return .workout(
                try HealthWorkout(
                    activityType: workout.activityType, start: workout.startDate, end: workout.endDate,
                    duration: workout.duration, totalEnergyBurned: workout.totalEnergyBurned,
                    totalDistance: workout.totalDistance, totalSwimmingStrokeCount: workout.totalSwimmingStrokeCount,
                    totalFlightsClimbed: workout.totalFlightsClimbed, events: workout.events,
                    activities: workout.activities, statistics: workout.statistics, source: source,
                    metadata: workout.metadata, uuid: workout.uuid))
        case .heartbeatSeries(let series):
            return .heartbeatSeries(
                try HealthHeartbeatSeries(
                    start: series.startDate, end: series.endDate, count: series.count, source: source,
                    metadata: series.metadata, uuid: series.uuid))
        }
    }

    private static func stamped(_ sample: HealthQuantitySample, source: HealthSource) throws(ValidationError)
        -> HealthQuantitySample
    {
        try HealthQuantitySample(
            type: sample.type, quantity: sample.quantity, start: sample.startDate, end: sample.endDate,
            source: source, metadata: sample.metadata, uuid: sample.uuid)
    }
}

/// A callback HealthKit declares without `@Sendable` but calls on a background queue, as HealthKit does.
struct ShimCallback<Function>: @unchecked Sendable {
    // @unchecked: HealthKit calls these completion handlers on an arbitrary background queue; the shim calls
    // each exactly like that (once, from the backend's callback queue) and never shares it otherwise.
    let call: Function
}
