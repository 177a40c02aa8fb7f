import Foundation

/// The value of a metadata entry: a string, a number, a date or a quantity — the four kinds HealthKit
/// accepts. Booleans are numbers 0 and 1, as in HealthKit.
///
/// String, integer, floating-point and Boolean literals make the common cases short.
///
/// Values encode as a single-key object naming the kind: `{"string": "Banana"}`, `{"number": 3}`,
/// `{"date": …}` (in the encoder's date strategy), `{"quantity": {"value": 4, "unit": "IU"}}`.
public enum MetadataValue: Hashable, Sendable {
    /// A string.
    case string(String)
    /// A number (Booleans are 0 and 1).
    case number(Double)
    /// A point in time.
    case date(Date)
    /// A quantity with its unit.
    case quantity(HealthQuantity)
}

extension MetadataValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral
{
    /// A string value from a literal.
    ///
    /// - Parameter value: The string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// A number value from an integer literal.
    ///
    /// - Parameter value: The number.
    public init(integerLiteral value: Int) {
        self = .number(Double(value))
    }

    /// A number value from a floating-point literal.
    ///
    /// - Parameter value: The number.
    public init(floatLiteral value: Double) {
        self = .number(value)
    }

    /// A Boolean stored as the number 1 (true) or 0 (false), as HealthKit stores it.
    ///
    /// - Parameter value: The flag.
    public init(booleanLiteral value: Bool) {
        self = .number(value ? 1 : 0)
    }
}

extension MetadataValue: CustomStringConvertible {
    /// The value for messages: strings quoted, numbers shortest, dates as `Date.description` (a date that is not
    /// finite as its seconds), quantities as `172 cm`.
    public var description: String {
        switch self {
        case .string(let string): "\"\(string)\""
        case .number(let number): NumberFormatting.shortest(number)
        case .date(let date): date.errorText
        case .quantity(let quantity): quantity.description
        }
    }
}

extension MetadataValue: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case string
        case number
        case date
        case quantity
    }

    /// Decodes a single-key object naming the kind (`{"number": 2}`).
    ///
    /// - Throws: `DecodingError` unless exactly one known key is present with a value of its kind.
    public init(from decoder: any Decoder) throws {
        let (container, key) = try decoder.singleKeyContainer(keyedBy: CodingKeys.self, subject: "a metadata value")
        switch key {
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .number: self = .number(try container.decode(Double.self, forKey: key))
        case .date: self = .date(try container.decode(Date.self, forKey: key))
        case .quantity: self = .quantity(try container.decode(HealthQuantity.self, forKey: key))
        }
    }

    /// Encodes a single-key object naming the kind (`{"number": 2}`).
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .string(let string): try container.encode(string, forKey: .string)
        case .number(let number): try container.encode(number, forKey: .number)
        case .date(let date): try container.encode(date, forKey: .date)
        case .quantity(let quantity): try container.encode(quantity, forKey: .quantity)
        }
    }
}

extension MetadataValue {
    /// The value as HealthKit's `[String: Any]` metadata holds it: a `String`, an `NSNumber`, a `Date`, or what
    /// `quantity` makes of a quantity (the shim's or HealthKit's `HKQuantity`).
    package func healthKitValue(quantity: (HealthQuantity) -> Any) -> Any {
        switch self {
        case .string(let string): string
        case .number(let number): NSNumber(value: number)
        case .date(let date): date
        case .quantity(let value): quantity(value)
        }
    }
}
