/// Builders mirroring `HKUnit`'s class methods, so ports of HealthKit code read the same.
extension HealthUnit {
    /// Meters (`m`), the SI unit of length.
    public static func meter() -> HealthUnit { HealthUnit(.meter) }

    /// Meters (`m`), the SI unit of length, scaled by a metric prefix.
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func meterUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.meter, prefix: prefix) }

    /// Grams (`g`), the base of mass.
    public static func gram() -> HealthUnit { HealthUnit(.gram) }

    /// Grams (`g`), the base of mass, scaled by a metric prefix.
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func gramUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.gram, prefix: prefix) }

    /// Liters (`L`; `l` parses too).
    public static func liter() -> HealthUnit { HealthUnit(.liter) }

    /// Liters (`L`; `l` parses too), scaled by a metric prefix.
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func literUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.liter, prefix: prefix) }

    /// Seconds (`s`).
    public static func second() -> HealthUnit { HealthUnit(.second) }

    /// Seconds (`s`), scaled by a metric prefix.
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func secondUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.second, prefix: prefix) }

    /// Joules (`J`).
    public static func joule() -> HealthUnit { HealthUnit(.joule) }

    /// Joules (`J`), scaled by a metric prefix.
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func jouleUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.joule, prefix: prefix) }

    /// Pascals (`Pa`).
    public static func pascal() -> HealthUnit { HealthUnit(.pascal) }

    /// Pascals (`Pa`), scaled by a metric prefix.
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func pascalUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.pascal, prefix: prefix) }

    /// Kelvin (`K`); converts to `degC`/`degF` with offsets when bare.
    public static func kelvin() -> HealthUnit { HealthUnit(.kelvin) }

    /// Kelvin (`K`); converts to `degC`/`degF` with offsets when bare, scaled by a metric prefix.
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func kelvinUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.kelvin, prefix: prefix) }

    /// Siemens (`S`), electrical conductance (HealthKit spells the builder `siemen`).
    public static func siemen() -> HealthUnit { HealthUnit(.siemens) }

    /// Siemens (`S`), electrical conductance (HealthKit spells the builder `siemen`), scaled by a metric prefix.
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func siemenUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.siemens, prefix: prefix) }

    /// Hertz (`Hz`), frequency: one per second.
    public static func hertz() -> HealthUnit { HealthUnit(.hertz) }

    /// Hertz (`Hz`), frequency: one per second, scaled by a metric prefix.
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func hertzUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.hertz, prefix: prefix) }

    /// Volts (`V`), electrical potential.
    public static func volt() -> HealthUnit { HealthUnit(.volt) }

    /// Volts (`V`), electrical potential, scaled by a metric prefix.
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func voltUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.volt, prefix: prefix) }

    /// A count of things (`count`).
    public static func count() -> HealthUnit { HealthUnit(.count) }

    /// Percent (`%`): 1/100 of a count. HealthKit stores percentages as fractions (0.97 `%` is 97 %).
    public static func percent() -> HealthUnit { HealthUnit(.percent) }

    /// Minutes (`min`).
    public static func minute() -> HealthUnit { HealthUnit(.minute) }

    /// Hours (`hr`; `hour` does not parse).
    public static func hour() -> HealthUnit { HealthUnit(.hour) }

    /// Days (`d`), 86400 s.
    public static func day() -> HealthUnit { HealthUnit(.day) }

    /// Small calories (`cal`), 4.184 J.
    public static func smallCalorie() -> HealthUnit { HealthUnit(.smallCalorie) }

    /// Kilocalories (`kcal`), 4184 J.
    public static func kilocalorie() -> HealthUnit { HealthUnit(.kilocalorie) }

    /// Large (food) calories (`Cal`); converts one to one with `kcal` but is a different unit.
    public static func largeCalorie() -> HealthUnit { HealthUnit(.largeCalorie) }

    /// Degrees Celsius (`degC`); a bare `degC` converts with the offset degC = K − 273.15.
    public static func degreeCelsius() -> HealthUnit { HealthUnit(.degreeCelsius) }

    /// Degrees Fahrenheit (`degF`); a bare `degF` converts with the offset degF = 1.8·K − 459.67.
    public static func degreeFahrenheit() -> HealthUnit { HealthUnit(.degreeFahrenheit) }

    /// Millimeters of mercury (`mmHg`), 133.322387415 Pa.
    public static func millimeterOfMercury() -> HealthUnit { HealthUnit(.millimeterOfMercury) }

    /// Centimeters of water (`cmAq`), 98.0665 Pa.
    public static func centimeterOfWater() -> HealthUnit { HealthUnit(.centimeterOfWater) }

    /// Standard atmospheres (`atm`), 101325 Pa.
    public static func atmosphere() -> HealthUnit { HealthUnit(.atmosphere) }

    /// Inches of mercury (`inHg`), 25.4 mmHg.
    public static func inchesOfMercury() -> HealthUnit { HealthUnit(.inchOfMercury) }

    /// International units (`IU`), a dimension of their own.
    public static func internationalUnit() -> HealthUnit { HealthUnit(.internationalUnit) }

    /// Avoirdupois ounces (`oz`), 28.349523125 g.
    public static func ounce() -> HealthUnit { HealthUnit(.ounce) }

    /// Avoirdupois pounds (`lb`), 453.59237 g.
    public static func pound() -> HealthUnit { HealthUnit(.pound) }

    /// Stones (`st`), 14 lb.
    public static func stone() -> HealthUnit { HealthUnit(.stone) }

    /// Inches (`in`), 2.54 cm.
    public static func inch() -> HealthUnit { HealthUnit(.inch) }

    /// Feet (`ft`), 0.3048 m.
    public static func foot() -> HealthUnit { HealthUnit(.foot) }

    /// Yards (`yd`), 0.9144 m.
    public static func yard() -> HealthUnit { HealthUnit(.yard) }

    /// Miles (`mi`), 1609.344 m.
    public static func mile() -> HealthUnit { HealthUnit(.mile) }

    /// US fluid ounces (`fl_oz_us`), 29.5735295625 mL.
    public static func fluidOunceUS() -> HealthUnit { HealthUnit(.fluidOunceUS) }

    /// Imperial fluid ounces (`fl_oz_imp`), 28.4130625 mL.
    public static func fluidOunceImperial() -> HealthUnit { HealthUnit(.fluidOunceImperial) }

    /// US pints (`pt_us`), 16 US fluid ounces.
    public static func pintUS() -> HealthUnit { HealthUnit(.pintUS) }

    /// Imperial pints (`pt_imp`), 20 imperial fluid ounces.
    public static func pintImperial() -> HealthUnit { HealthUnit(.pintImperial) }

    /// US customary cups (`cup_us`), 8 US fluid ounces (236.5882365 mL).
    public static func cupUS() -> HealthUnit { HealthUnit(.cupUS) }

    /// Imperial cups (`cup_imp`), 10 imperial fluid ounces (284.130625 mL).
    public static func cupImperial() -> HealthUnit { HealthUnit(.cupImperial) }

    /// A-weighted sound pressure level in decibels (`dBASPL`).
    public static func decibelAWeightedSoundPressureLevel() -> HealthUnit {
        HealthUnit(.decibelAWeightedSoundPressureLevel)
    }

    /// Hearing level in decibels (`dBHL`).
    public static func decibelHearingLevel() -> HealthUnit { HealthUnit(.decibelHearingLevel) }

    /// The unitless unit `()`: no factors, dimensionless.
    public static func unitless() -> HealthUnit { HealthUnit(factors: [:]) }

    /// The molar mass of glucose in grams per mole, as HealthKit defines it (`HKUnitMolarMassBloodGlucose`).
    public static let molarMassBloodGlucose: Double = 180.15588000005408

    /// Moles of a substance with a molar mass, scaled by a metric prefix: a mass unit
    /// (`mol<M>` is M grams), which is what lets `mmol<180.15588000005408>/L` convert to `mg/dL`.
    ///
    /// - Parameters:
    ///   - prefix: The metric prefix (`.milli` for millimoles).
    ///   - molarMass: Grams per mole; must be finite and positive.
    /// - Throws: `UnitError.invalidMolarMass` when `molarMass` is not finite and positive.
    public static func moleUnit(with prefix: MetricPrefix, molarMass: Double) throws(UnitError) -> HealthUnit {
        guard molarMass.isFinite, molarMass > 0 else { throw .invalidMolarMass(molarMass) }
        return HealthUnit(factors: [UnitAtom(.mole, prefix: prefix, molarMass: molarMass): 1])
    }

    /// Moles of a substance with a molar mass (`mol<M>`), a mass unit.
    ///
    /// - Parameter molarMass: Grams per mole; must be finite and positive.
    /// - Throws: `UnitError.invalidMolarMass` when `molarMass` is not finite and positive.
    public static func moleUnit(withMolarMass molarMass: Double) throws(UnitError) -> HealthUnit {
        try moleUnit(with: .none, molarMass: molarMass)
    }

    /// Moles without a molar mass (`mol`), scaled by a metric prefix: an amount of substance, which does
    /// not convert to mass (`mmol/L` is not compatible with `mg/dL`).
    ///
    /// - Parameter prefix: The metric prefix.
    public static func moleUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.mole, prefix: prefix) }
}
