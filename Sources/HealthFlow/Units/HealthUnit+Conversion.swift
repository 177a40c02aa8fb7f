/// Exact conversion between compatible units.
extension HealthUnit {
    /// Converts a value from one unit to another of the same dimension.
    ///
    /// Multiplicative units convert by the ratio of their sizes; prefix changes multiply or divide by an
    /// exact power of ten, so `172 cm` is exactly `1.72 m`. Temperatures convert with their offsets
    /// (degC = K − 273.15, degF = 1.8·K − 459.67) only when both units are a *bare* temperature unit —
    /// a single temperature factor with exponent 1, such as `degC`, `degF`, `K` or `mK`. In a compound
    /// (`degC/min`, `degF^2`) a temperature is a temperature *difference* and converts by scale alone
    /// (1 degC = 1 K, 1 degF = 5/9 K).
    ///
    /// - Parameters:
    ///   - value: The value in `from`. Non-finite values pass through as IEEE arithmetic makes them.
    ///   - from: The unit of `value`.
    ///   - to: The unit wanted.
    /// - Returns: The value expressed in `to`.
    /// - Throws: `UnitError.incompatible(from:to:)` when the dimensions differ (`g` to `count`,
    ///   `mmol/L` to `mg/dL`).
    public static func convert(_ value: Double, from: HealthUnit, to: HealthUnit) throws(UnitError) -> Double {
        if from == to { return value }
        guard from.dimension == to.dimension else { throw .incompatible(from: from, to: to) }
        return convertKnownCompatible(value, from: from, to: to)
    }

    /// ``convert(_:from:to:)`` for units already found to share a dimension: the same arithmetic, without the
    /// dimension check (which builds both units' dimensions).
    static func convertKnownCompatible(_ value: Double, from: HealthUnit, to: HealthUnit) -> Double {
        if from == to { return value }
        if let source = from.bareTemperature, let target = to.bareTemperature {
            return BareTemperature.convert(value, from: source, to: target)
        }
        return from.scale.convert(value, to: to.scale)
    }

    /// The unit as a bare temperature (a single temperature factor with exponent 1), if it is one.
    var bareTemperature: BareTemperature? {
        guard factors.count == 1, let (atom, power) = factors.first, power == 1 else { return nil }
        switch atom.base {
        case .kelvin: return .kelvin(atom.scale)
        case .degreeCelsius: return .celsius
        case .degreeFahrenheit: return .fahrenheit
        default: return nil
        }
    }
}

/// A temperature scale with an offset, for converting bare temperature units.
enum BareTemperature {
    /// Kelvin, possibly prefixed (`mK`): the scale of one unit in kelvin.
    case kelvin(UnitScale)
    case celsius
    case fahrenheit

    static func convert(_ value: Double, from source: BareTemperature, to target: BareTemperature) -> Double {
        switch (source, target) {
        case (.celsius, .celsius), (.fahrenheit, .fahrenheit): value
        case (.celsius, .fahrenheit): value * 1.8 + 32
        case (.fahrenheit, .celsius): (value - 32) / 1.8
        case (.kelvin(let scale), .kelvin(let targetScale)): scale.convert(value, to: targetScale)
        case (.kelvin(let scale), _): fromKelvin(scale.convert(value, to: .one), to: target)
        case (_, .kelvin(let scale)): UnitScale.one.convert(toKelvin(value, from: source), to: scale)
        }
    }

    private static func toKelvin(_ value: Double, from source: BareTemperature) -> Double {
        switch source {
        case .kelvin(let scale): scale.convert(value, to: .one)
        case .celsius: value + 273.15
        case .fahrenheit: (value + 459.67) / 1.8
        }
    }

    private static func fromKelvin(_ kelvin: Double, to target: BareTemperature) -> Double {
        switch target {
        case .kelvin(let scale): UnitScale.one.convert(kelvin, to: scale)
        case .celsius: kelvin - 273.15
        case .fahrenheit: kelvin * 1.8 - 459.67
        }
    }
}
