import HealthFlow

/// HealthKit's exception messages for the invalid inputs HealthFlow's validation reports.
enum ShimExceptionReason {
    static func message(for error: ValidationError) -> String {
        switch error {
        case .incompatibleUnit(let type, _, let unit, let expected):
            return "\(type.healthKitIdentifier) requires unit of type \(expected.dimension). "
                + "Incompatible unit: \(unit.unitString)"
        case .missingMetadata(let type, let key):
            return "\(key.rawValue) is required for \(type.healthKitIdentifier)"
        case .endBeforeStart:
            return "startDate must be earlier than or equal to endDate"
        default:
            return error.description
        }
    }
}
