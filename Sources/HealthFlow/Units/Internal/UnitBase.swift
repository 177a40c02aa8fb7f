import Foundation

/// Every named unit HealthKit's unit strings know, with its dimension and exact scale.
///
/// Scales are expressed against the coherent base `g`, `m`, `s`, `K` (volume against `m³`): a unit's
/// size is `numerator / denominator × 10^powerOfTen` of that base. Keeping the power of ten apart keeps
/// prefix conversions exact (multiplying or dividing by an exactly representable `10^k`), and integral
/// mantissas keep most other factors exact too.
enum UnitBase: String, CaseIterable, Sendable {
    // SI bases that accept a metric prefix.
    case gram = "g"
    case meter = "m"
    case liter = "L"
    case pascal = "Pa"
    case second = "s"
    case joule = "J"
    case kelvin = "K"
    case siemens = "S"
    case hertz = "Hz"
    case volt = "V"
    case mole = "mol"
    // Named units; no prefix.
    case ounce = "oz"
    case pound = "lb"
    case stone = "st"
    case inch = "in"
    case foot = "ft"
    case yard = "yd"
    case mile = "mi"
    case millimeterOfMercury = "mmHg"
    case centimeterOfWater = "cmAq"
    case atmosphere = "atm"
    case inchOfMercury = "inHg"
    case decibelAWeightedSoundPressureLevel = "dBASPL"
    case decibelHearingLevel = "dBHL"
    case fluidOunceUS = "fl_oz_us"
    case fluidOunceImperial = "fl_oz_imp"
    case pintUS = "pt_us"
    case pintImperial = "pt_imp"
    case cupUS = "cup_us"
    case cupImperial = "cup_imp"
    case minute = "min"
    case hour = "hr"
    case day = "d"
    case smallCalorie = "cal"
    case kilocalorie = "kcal"
    case largeCalorie = "Cal"
    case degreeCelsius = "degC"
    case degreeFahrenheit = "degF"
    case internationalUnit = "IU"
    case count = "count"
    case percent = "%"

    /// The symbol printed in unit strings.
    var symbol: String { rawValue }

    /// Whether a metric prefix may precede the symbol.
    var acceptsPrefix: Bool {
        switch self {
        case .gram, .meter, .liter, .pascal, .second, .joule, .kelvin, .siemens, .hertz, .volt, .mole: true
        default: false
        }
    }

    /// Exact lookup of a symbol without prefix; `l` is accepted for the liter.
    static func named(_ symbol: String) -> UnitBase? {
        symbol == "l" ? .liter : UnitBase(rawValue: symbol)
    }

    /// The dimension of one unit. A mole is listed as amount of substance; with a molar mass it is a mass
    /// (see `UnitAtom.dimension`).
    var dimension: UnitDimension {
        switch self {
        case .gram, .ounce, .pound, .stone: .mass
        case .meter, .inch, .foot, .yard, .mile: .length
        case .liter, .fluidOunceUS, .fluidOunceImperial, .pintUS, .pintImperial, .cupUS, .cupImperial: .volume
        case .pascal, .millimeterOfMercury, .centimeterOfWater, .atmosphere, .inchOfMercury: .pressure
        case .second, .minute, .hour, .day: .time
        case .joule, .smallCalorie, .kilocalorie, .largeCalorie: .energy
        case .kelvin, .degreeCelsius, .degreeFahrenheit: .temperature
        case .siemens: .conductance
        case .hertz: .frequency
        case .volt: .voltage
        case .mole: .amountOfSubstance
        case .decibelAWeightedSoundPressureLevel: .soundPressureLevel
        case .decibelHearingLevel: .hearingLevel
        case .internationalUnit: .internationalUnit
        case .count, .percent: .count
        }
    }

    /// The size of one unit against the coherent base of its dimension.
    ///
    /// Definitions: international avoirdupois pound and yard (1959); US customary fluid ounce
    /// (29.5735295625 mL), pint (16 fl oz) and cup (8 fl oz = 236.5882365 mL); imperial fluid ounce
    /// (28.4130625 mL), pint (20 fl oz) and cup (10 fl oz = 284.130625 mL); conventional millimeter of
    /// mercury (133.322387415 Pa), inch of mercury (25.4 mmHg) and centimeter of water (98.0665 Pa);
    /// standard atmosphere (101325 Pa); thermochemical calorie (4.184 J); `Cal` = `kcal`.
    var scale: UnitScale {
        switch self {
        case .gram, .meter, .second, .kelvin, .siemens, .hertz, .volt, .mole, .internationalUnit, .count,
            .decibelAWeightedSoundPressureLevel, .decibelHearingLevel, .degreeCelsius:
            UnitScale(numerator: 1, powerOfTen: 0)
        case .liter: UnitScale(numerator: 1, powerOfTen: -3)  // m³
        // Pressure and energy are measured against g (not kg), so Pa = 10³ g·m⁻¹·s⁻², J = 10³ g·m²·s⁻².
        case .pascal, .joule: UnitScale(numerator: 1, powerOfTen: 3)
        case .ounce: UnitScale(numerator: 28_349_523_125, powerOfTen: -9)
        case .pound: UnitScale(numerator: 45_359_237, powerOfTen: -5)
        case .stone: UnitScale(numerator: 635_029_318, powerOfTen: -5)
        case .inch: UnitScale(numerator: 254, powerOfTen: -4)
        case .foot: UnitScale(numerator: 3048, powerOfTen: -4)
        case .yard: UnitScale(numerator: 9144, powerOfTen: -4)
        case .mile: UnitScale(numerator: 1_609_344, powerOfTen: -3)
        case .millimeterOfMercury: UnitScale(numerator: 133_322_387_415, powerOfTen: -6)
        case .inchOfMercury: UnitScale(numerator: 3_386_388_640_341, powerOfTen: -6)
        case .centimeterOfWater: UnitScale(numerator: 980_665, powerOfTen: -1)
        case .atmosphere: UnitScale(numerator: 101_325, powerOfTen: 3)
        case .fluidOunceUS: UnitScale(numerator: 295_735_295_625, powerOfTen: -16)
        case .fluidOunceImperial: UnitScale(numerator: 284_130_625, powerOfTen: -13)
        case .pintUS: UnitScale(numerator: 473_176_473, powerOfTen: -12)
        case .pintImperial: UnitScale(numerator: 56_826_125, powerOfTen: -11)
        case .cupUS: UnitScale(numerator: 2_365_882_365, powerOfTen: -13)
        case .cupImperial: UnitScale(numerator: 284_130_625, powerOfTen: -12)
        case .minute: UnitScale(numerator: 60, powerOfTen: 0)
        case .hour: UnitScale(numerator: 3600, powerOfTen: 0)
        case .day: UnitScale(numerator: 86400, powerOfTen: 0)
        case .smallCalorie: UnitScale(numerator: 4184, powerOfTen: 0)
        case .kilocalorie, .largeCalorie: UnitScale(numerator: 4184, powerOfTen: 3)
        case .degreeFahrenheit: UnitScale(numerator: 5, denominator: 9, powerOfTen: 0)
        case .percent: UnitScale(numerator: 1, powerOfTen: -2)
        }
    }

    /// The position of the unit's kind in a printed unit string (see `HealthUnit.unitString`).
    var printRank: Int {
        switch self {
        case .count, .percent: 0
        case .internationalUnit: 1
        case .joule, .smallCalorie, .kilocalorie, .largeCalorie: 2
        case .liter, .fluidOunceUS, .fluidOunceImperial, .pintUS, .pintImperial, .cupUS, .cupImperial: 3
        case .meter, .inch, .foot, .yard, .mile: 4
        case .second, .minute, .hour, .day: 5
        case .gram, .ounce, .pound, .stone, .mole: 6
        case .pascal, .millimeterOfMercury, .centimeterOfWater, .atmosphere, .inchOfMercury: 7
        case .kelvin, .degreeCelsius, .degreeFahrenheit: 8
        case .siemens, .volt: 9
        case .hertz: 10
        case .decibelAWeightedSoundPressureLevel, .decibelHearingLevel: 11
        }
    }
}

/// An exact-as-possible scale factor: `numerator / denominator × 10^powerOfTen`.
struct UnitScale: Sendable {
    var numerator: Double
    var denominator: Double = 1
    var powerOfTen: Int

    init(numerator: Double, denominator: Double = 1, powerOfTen: Int) {
        self.numerator = numerator
        self.denominator = denominator
        self.powerOfTen = powerOfTen
    }

    static let one = UnitScale(numerator: 1, powerOfTen: 0)

    /// The scale raised to an integer power; a negative power swaps numerator and denominator so both
    /// stay products of (usually integral) mantissas.
    func raised(to power: Int) -> UnitScale {
        if power == 0 { return .one }
        let magnitude = Double(power.magnitude)
        let up = numerator == 1 ? 1 : Foundation.pow(numerator, magnitude)
        let down = denominator == 1 ? 1 : Foundation.pow(denominator, magnitude)
        let exponent = Saturating.multiply(powerOfTen, power)
        return power > 0
            ? UnitScale(numerator: up, denominator: down, powerOfTen: exponent)
            : UnitScale(numerator: down, denominator: up, powerOfTen: exponent)
    }

    func multiplied(by other: UnitScale) -> UnitScale {
        UnitScale(
            numerator: numerator * other.numerator,
            denominator: denominator * other.denominator,
            powerOfTen: Saturating.add(powerOfTen, other.powerOfTen))
    }

    /// Converts `value` expressed in a unit of this scale into a unit of `target` scale.
    func convert(_ value: Double, to target: UnitScale) -> Double {
        let up = numerator * target.denominator
        let down = denominator * target.numerator
        var result = value
        if up != down {
            result = value * up / down
        }
        let exponent = Saturating.add(powerOfTen, Saturating.negate(target.powerOfTen))
        return Self.scaled(result, byPowerOfTen: exponent)
    }

    /// `value × 10^exponent`, multiplying or dividing by exactly representable powers of ten (10⁰…10²²)
    /// so a single-step prefix conversion rounds once.
    static func scaled(_ value: Double, byPowerOfTen exponent: Int) -> Double {
        if exponent == 0 || value == 0 || !value.isFinite { return value }
        if exponent > 700 { return value * .infinity }
        if exponent < -800 { return value * 0 }
        var result = value
        var remaining = exponent.magnitude
        while remaining > 0 {
            let step = min(remaining, 22)
            let power = exactPowersOfTen[Int(step)]
            result = exponent > 0 ? result * power : result / power
            remaining -= step
        }
        return result
    }

    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
        1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
