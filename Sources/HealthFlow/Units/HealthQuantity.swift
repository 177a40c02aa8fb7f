/// An amount in a unit — the counterpart of `HKQuantity`.
///
/// A quantity keeps the value and unit it was made with; read it in any compatible unit with
/// `doubleValue(for:)`.
///
/// Equality is memberwise: `1 m` and `100 cm` are different quantities under `==` (compare values read
/// in one unit instead). Quantities encode as `{"value": 172, "unit": "cm"}`.
public struct HealthQuantity: Hashable, Sendable {
    /// The value, in `unit`.
    public let value: Double
    /// The unit the quantity was made with.
    public let unit: HealthUnit

    /// Makes a quantity; any value is accepted here, samples validate it.
    ///
    /// - Parameters:
    ///   - unit: The unit of `doubleValue`.
    ///   - doubleValue: The amount.
    public init(unit: HealthUnit, doubleValue: Double) {
        self.unit = unit
        self.value = doubleValue
    }

    /// The value expressed in another unit of the same dimension.
    ///
    /// - Parameter unit: The unit wanted.
    /// - Returns: The value in `unit`.
    /// - Throws: `UnitError.incompatible(from:to:)` when `unit` measures a different dimension.
    public func doubleValue(for unit: HealthUnit) throws(UnitError) -> Double {
        try HealthUnit.convert(value, from: self.unit, to: unit)
    }

    /// Whether the quantity can be read in `unit`.
    ///
    /// - Parameter unit: The unit to check.
    /// - Returns: `true` when the dimensions match.
    public func `is`(compatibleWith unit: HealthUnit) -> Bool {
        self.unit.isCompatible(with: unit)
    }
}

extension HealthQuantity: CustomStringConvertible {
    /// The value and unit string separated by a space: `172 cm`, `0.97 %`, `5.5 mmol<180.15588000005408>/L`.
    public var description: String {
        "\(NumberFormatting.shortest(value)) \(unit.unitString)"
    }
}

extension HealthQuantity: Codable {
    private enum CodingKeys: String, CodingKey {
        case value
        case unit
    }

    /// Decodes `{"value": …, "unit": "…"}`.
    ///
    /// - Throws: `DecodingError` when a key is missing or the unit string is invalid.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            unit: try container.decode(HealthUnit.self, forKey: .unit),
            doubleValue: try container.decode(Double.self, forKey: .value))
    }

    /// Encodes `{"value": …, "unit": "…"}`.
    ///
    /// - Throws: Whatever the encoder throws (a `JSONEncoder` rejects non-finite values by default).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(unit, forKey: .unit)
    }
}
