/// Why the synthetic data generator could not produce a data set.
///
/// The generator builds every sample with the validated initialisers; should one ever be refused, the
/// refusal surfaces here instead of crashing.
public enum GeneratorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The configuration cannot describe a data set; the reason says which field.
    case invalidConfiguration(String)
    /// A generated sample failed validation.
    case invalidSample(ValidationError)
    /// Deriving the activity summaries failed.
    case activitySummary(ActivitySummaryError)
    /// The calendar could not compute a day's bounds.
    case calendarArithmeticFailed(day: Int)

    /// A readable message.
    public var description: String {
        switch self {
        case .invalidConfiguration(let reason): "generator configuration is invalid: \(reason)"
        case .invalidSample(let error): "generated sample is invalid: \(error)"
        case .activitySummary(let error): "generated activity summaries are invalid: \(error)"
        case .calendarArithmeticFailed(let day): "the calendar cannot compute day \(day)"
        }
    }
}
