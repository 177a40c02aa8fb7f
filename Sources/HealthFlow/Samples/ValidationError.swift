import Foundation

/// Why a sample could not be made: one case per rule of HealthKit's that the sample breaks.
///
/// Where HealthKit raises an exception (and crashes the app), our initializers throw one of these; the
/// description names the type, the field and the offending value.
public enum ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The type has no samples: a characteristic or the activity summary.
    case notASampleType(HealthObjectType)
    /// The type is a sample type of another kind than the sample being made (a category type for a
    /// quantity sample).
    case wrongKind(HealthObjectType, expected: HealthObjectType.Kind)
    /// A quantity's unit does not measure what the type (or field) measures.
    case incompatibleUnit(HealthObjectType, field: String, unit: HealthUnit, expected: HealthUnit)
    /// A value is NaN or infinite.
    case nonFiniteValue(HealthObjectType, field: String, value: Double)
    /// A value is negative where that makes no sense (steps, mass, heart rate, counts of measurements).
    case negativeValue(HealthObjectType, field: String, value: Double)
    /// A date is not finite (its time interval is NaN or infinite).
    case invalidDate(HealthObjectType, field: String)
    /// The end date is earlier than the start date.
    case endBeforeStart(HealthObjectType, start: Date, end: Date)
    /// A metadata key the type requires is absent.
    case missingMetadata(HealthObjectType, key: MetadataKey)
    /// A known metadata key holds a value it does not accept; `expected` says what it accepts.
    case invalidMetadataValue(HealthObjectType, key: MetadataKey, value: MetadataValue, expected: String)
    /// A category sample's value is not one the type allows.
    case invalidCategoryValue(HealthObjectType, value: Int, allowed: [Int])
    /// A correlation lacks a member type it needs (a diastolic reading, dietary energy).
    case missingCorrelationMember(HealthObjectType, member: HealthObjectType)
    /// A correlation holds a sample of a type it may not contain.
    case unexpectedCorrelationMember(HealthObjectType, member: HealthObjectType)
    /// A correlation holds more than one sample of a type it needs exactly once.
    case duplicateCorrelationMember(HealthObjectType, member: HealthObjectType)
    /// A member's start or end date differs from its correlation's.
    case correlationMemberDatesDiffer(HealthObjectType, member: HealthObjectType, memberUUID: UUID)
    /// A UUID is used twice within one correlation (by two members, or by a member and the correlation).
    case duplicateUUID(HealthObjectType, uuid: UUID)
    /// An ECG's voltage measurements do not number `numberOfVoltageMeasurements`.
    case voltageMeasurementCountMismatch(expected: Int, actual: Int)
    /// An ECG voltage measurement's time is not finite, negative, later than the sample's duration, or
    /// earlier than the measurement before it.
    case voltageMeasurementTimeOutOfRange(index: Int, timeSinceSampleStart: Double)
    /// A workout event, activity or statistics entry (named by `field`, e.g. `activities[0].events[2]`) ends
    /// before it starts, or lies outside the interval of the workout or activity holding it.
    case workoutIntervalOutOfRange(field: String, start: Date, end: Date)
    /// A workout (or one of its activities) has two statistics entries for one quantity type.
    case duplicateWorkoutStatistics(field: String, type: HealthObjectType)
    /// A workout route's location (by its position) has a field that is not finite, a latitude or longitude out
    /// of range, or a timestamp earlier than the location before it.
    case invalidRouteLocation(index: Int, field: String)
    /// A heartbeat series' beats do not number its `count`.
    case heartbeatCountMismatch(expected: Int, actual: Int)
    /// A heartbeat's time is not finite, negative, or not later than the beat before it.
    case heartbeatTimeOutOfOrder(index: Int, timeSinceSeriesStart: Double)

    /// A readable message naming the type, the field and the value.
    public var description: String {
        switch self {
        case .notASampleType(let type):
            return "\(type) is a \(type.kind.rawValue) type, not a sample type"
        case .wrongKind(let type, let expected):
            return "\(type) is a \(type.kind.rawValue) type; expected a \(expected.rawValue) type"
        case .incompatibleUnit(let type, let field, let unit, let expected):
            let subject = field == "quantity" ? "\(type)" : "\(type) \(field)"
            return "\(subject) requires a unit compatible with \(expected.unitString); got \(unit.unitString)"
        case .nonFiniteValue(let type, let field, let value):
            return "\(type) \(field) must be finite; got \(value)"
        case .negativeValue(let type, let field, let value):
            return "\(type) \(field) must not be negative; got \(NumberFormatting.shortest(value))"
        case .invalidDate(let type, let field):
            return "\(type) \(field) must be a finite date"
        case .endBeforeStart(let type, let start, let end):
            return "\(type) endDate \(end.errorText) is before startDate \(start.errorText)"
        case .missingMetadata(let type, let key):
            return "\(type) requires metadata \(key)"
        case .invalidMetadataValue(let type, let key, let value, let expected):
            return "\(type) metadata \(key) must be \(expected); got \(value)"
        case .invalidCategoryValue(let type, let value, let allowed):
            let list = allowed.map(String.init).joined(separator: ", ")
            return "\(type) value must be one of \(list); got \(value)"
        case .missingCorrelationMember(let type, let member):
            return "\(type) requires a \(member) member"
        case .unexpectedCorrelationMember(let type, let member):
            return "\(type) cannot contain a \(member) member"
        case .duplicateCorrelationMember(let type, let member):
            return "\(type) must contain exactly one \(member) member; got more"
        case .correlationMemberDatesDiffer(let type, let member, let uuid):
            return "\(type) member \(member) \(uuid.uuidString) must share the correlation's start and end dates"
        case .duplicateUUID(let type, let uuid):
            return "\(type) uses UUID \(uuid.uuidString) more than once"
        case .voltageMeasurementCountMismatch(let expected, let actual):
            return "electrocardiogram numberOfVoltageMeasurements is \(expected); got \(actual) voltage measurements"
        case .voltageMeasurementTimeOutOfRange(let index, let time):
            return "electrocardiogram voltageMeasurements[\(index)] timeSinceSampleStart \(time) is out of range"
        case .workoutIntervalOutOfRange(let field, let start, let end):
            return
                "workout \(field) \(start.errorText) to \(end.errorText) must not end before it starts nor lie outside its workout"
        case .duplicateWorkoutStatistics(let field, let type):
            return "workout \(field) has more than one entry for \(type)"
        case .invalidRouteLocation(let index, let field):
            return "workout route locations[\(index)].\(field) is not finite, out of range or out of time order"
        case .heartbeatCountMismatch(let expected, let actual):
            return "heartbeat series count is \(expected); got \(actual) heartbeats"
        case .heartbeatTimeOutOfOrder(let index, let time):
            return "heartbeat series heartbeats[\(index)] timeSinceSeriesStart \(time) is not finite, negative or "
                + "not after the beat before it"
        }
    }
}
