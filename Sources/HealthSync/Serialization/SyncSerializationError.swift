/// Why ``SyncBatchWriter`` refused to write. Messages name the field, never a health value.
public enum SyncSerializationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A number was NaN or infinite (valid samples never hold one). `field` is a JSON path such as `samples[].value`.
    case nonFiniteNumber(field: String)
    /// A date was not finite or fell outside years 0...9999.
    case invalidDate(field: String)
    /// A call came in the wrong order, e.g. a sample after the section's deletions or after `finish()`.
    case misuse(String)
    /// A sample was written into a section of another type.
    case sectionTypeMismatch(section: String, sample: String)

    /// A readable message naming the problem.
    public var description: String {
        switch self {
        case .nonFiniteNumber(let field): "non-finite number in \(field)"
        case .invalidDate(let field): "date in \(field) is not finite or outside years 0...9999"
        case .misuse(let message): "sync batch writer misuse: \(message)"
        case .sectionTypeMismatch(let section, let sample):
            "a \(sample) sample cannot be written into the \(section) section"
        }
    }
}
