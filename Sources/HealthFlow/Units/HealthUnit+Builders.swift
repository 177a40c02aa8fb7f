/// Builders mirroring `HKUnit`'s class methods, so ports of HealthKit code read the same.
///
/// ```swift
/// let cm = HealthUnit.meterUnit(with: .centi)
/// let perMinute = HealthUnit.count().unitDivided(by: .minute())
/// ```
extension HealthUnit {
    /// Meters (`m`), the SI unit of length.
    ///
    /// ```swift
    /// HealthUnit.meter().unitString   // "m"
    /// ```
    public static func meter() -> HealthUnit { HealthUnit(.meter) }

    /// Meters (`m`), the SI unit of length, scaled by a metric prefix.
    ///
    /// ```swift
    /// HealthUnit.meterUnit(with: .milli).unitString   // "mm"
    /// ```
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func meterUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.meter, prefix: prefix) }

    /// Grams (`g`), the base of mass.
    ///
    /// ```swift
    /// HealthUnit.gram().unitString   // "g"
    /// ```
    public static func gram() -> HealthUnit { HealthUnit(.gram) }

    /// Grams (`g`), the base of mass, scaled by a metric prefix.
    ///
    /// ```swift
    /// HealthUnit.gramUnit(with: .milli).unitString   // "mg"
    /// ```
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func gramUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.gram, prefix: prefix) }

    /// Liters (`L`; `l` parses too).
    ///
    /// ```swift
    /// HealthUnit.liter().unitString   // "L"
    /// ```
    public static func liter() -> HealthUnit { HealthUnit(.liter) }

    /// Liters (`L`; `l` parses too), scaled by a metric prefix.
    ///
    /// ```swift
    /// HealthUnit.literUnit(with: .milli).unitString   // "mL"
    /// ```
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func literUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.liter, prefix: prefix) }

    /// Seconds (`s`).
    ///
    /// ```swift
    /// HealthUnit.second().unitString   // "s"
    /// ```
    public static func second() -> HealthUnit { HealthUnit(.second) }

    /// Seconds (`s`), scaled by a metric prefix.
    ///
    /// ```swift
    /// HealthUnit.secondUnit(with: .milli).unitString   // "ms"
    /// ```
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func secondUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.second, prefix: prefix) }

    /// Joules (`J`).
    ///
    /// ```swift
    /// HealthUnit.joule().unitString   // "J"
    /// ```
    public static func joule() -> HealthUnit { HealthUnit(.joule) }

    /// Joules (`J`), scaled by a metric prefix.
    ///
    /// ```swift
    /// HealthUnit.jouleUnit(with: .milli).unitString   // "mJ"
    /// ```
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func jouleUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.joule, prefix: prefix) }

    /// Pascals (`Pa`).
    ///
    /// ```swift
    /// HealthUnit.pascal().unitString   // "Pa"
    /// ```
    public static func pascal() -> HealthUnit { HealthUnit(.pascal) }

    /// Pascals (`Pa`), scaled by a metric prefix.
    ///
    /// ```swift
    /// HealthUnit.pascalUnit(with: .milli).unitString   // "mPa"
    /// ```
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func pascalUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.pascal, prefix: prefix) }

    /// Kelvin (`K`); converts to `degC`/`degF` with offsets when bare.
    ///
    /// ```swift
    /// HealthUnit.kelvin().unitString   // "K"
    /// ```
    public static func kelvin() -> HealthUnit { HealthUnit(.kelvin) }

    /// Kelvin (`K`); converts to `degC`/`degF` with offsets when bare, scaled by a metric prefix.
    ///
    /// ```swift
    /// HealthUnit.kelvinUnit(with: .milli).unitString   // "mK"
    /// ```
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func kelvinUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.kelvin, prefix: prefix) }

    /// Siemens (`S`), electrical conductance (HealthKit spells the builder `siemen`).
    ///
    /// ```swift
    /// HealthUnit.siemen().unitString   // "S"
    /// ```
    public static func siemen() -> HealthUnit { HealthUnit(.siemens) }

    /// Siemens (`S`), electrical conductance (HealthKit spells the builder `siemen`), scaled by a metric prefix.
    ///
    /// ```swift
    /// HealthUnit.siemenUnit(with: .milli).unitString   // "mS"
    /// ```
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func siemenUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.siemens, prefix: prefix) }

    /// Hertz (`Hz`), frequency: one per second.
    ///
    /// ```swift
    /// HealthUnit.hertz().unitString   // "Hz"
    /// ```
    public static func hertz() -> HealthUnit { HealthUnit(.hertz) }

    /// Hertz (`Hz`), frequency: one per second, scaled by a metric prefix.
    ///
    /// ```swift
    /// HealthUnit.hertzUnit(with: .milli).unitString   // "mHz"
    /// ```
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func hertzUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.hertz, prefix: prefix) }

    /// Volts (`V`), electrical potential.
    ///
    /// ```swift
    /// HealthUnit.volt().unitString   // "V"
    /// ```
    public static func volt() -> HealthUnit { HealthUnit(.volt) }

    /// Volts (`V`), electrical potential, scaled by a metric prefix.
    ///
    /// ```swift
    /// HealthUnit.voltUnit(with: .milli).unitString   // "mV"
    /// ```
    ///
    /// - Parameter prefix: The metric prefix (`.none` for the base unit).
    public static func voltUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.volt, prefix: prefix) }

    /// A count of things (`count`).
    ///
    /// ```swift
    /// HealthUnit.count().unitString   // "count"
    /// ```
    public static func count() -> HealthUnit { HealthUnit(.count) }

    /// Percent (`%`): 1/100 of a count. HealthKit stores percentages as fractions (0.97 `%` is 97 %).
    ///
    /// ```swift
    /// HealthUnit.percent().unitString   // "%"
    /// ```
    public static func percent() -> HealthUnit { HealthUnit(.percent) }

    /// Minutes (`min`).
    ///
    /// ```swift
    /// HealthUnit.minute().unitString   // "min"
    /// ```
    public static func minute() -> HealthUnit { HealthUnit(.minute) }

    /// Hours (`hr`; `hour` does not parse).
    ///
    /// ```swift
    /// HealthUnit.hour().unitString   // "hr"
    /// ```
    public static func hour() -> HealthUnit { HealthUnit(.hour) }

    /// Days (`d`), 86400 s.
    ///
    /// ```swift
    /// HealthUnit.day().unitString   // "d"
    /// ```
    public static func day() -> HealthUnit { HealthUnit(.day) }

    /// Small calories (`cal`), 4.184 J.
    ///
    /// ```swift
    /// HealthUnit.smallCalorie().unitString   // "cal"
    /// ```
    public static func smallCalorie() -> HealthUnit { HealthUnit(.smallCalorie) }

    /// Kilocalories (`kcal`), 4184 J.
    ///
    /// ```swift
    /// HealthUnit.kilocalorie().unitString   // "kcal"
    /// ```
    public static func kilocalorie() -> HealthUnit { HealthUnit(.kilocalorie) }

    /// Large (food) calories (`Cal`); converts one to one with `kcal` but is a different unit.
    ///
    /// ```swift
    /// HealthUnit.largeCalorie().unitString   // "Cal"
    /// ```
    public static func largeCalorie() -> HealthUnit { HealthUnit(.largeCalorie) }

    /// Degrees Celsius (`degC`); a bare `degC` converts with the offset degC = K − 273.15.
    ///
    /// ```swift
    /// HealthUnit.degreeCelsius().unitString   // "degC"
    /// ```
    public static func degreeCelsius() -> HealthUnit { HealthUnit(.degreeCelsius) }

    /// Degrees Fahrenheit (`degF`); a bare `degF` converts with the offset degF = 1.8·K − 459.67.
    ///
    /// ```swift
    /// HealthUnit.degreeFahrenheit().unitString   // "degF"
    /// ```
    public static func degreeFahrenheit() -> HealthUnit { HealthUnit(.degreeFahrenheit) }

    /// Millimeters of mercury (`mmHg`), 133.322387415 Pa.
    ///
    /// ```swift
    /// HealthUnit.millimeterOfMercury().unitString   // "mmHg"
    /// ```
    public static func millimeterOfMercury() -> HealthUnit { HealthUnit(.millimeterOfMercury) }

    /// Centimeters of water (`cmAq`), 98.0665 Pa.
    ///
    /// ```swift
    /// HealthUnit.centimeterOfWater().unitString   // "cmAq"
    /// ```
    public static func centimeterOfWater() -> HealthUnit { HealthUnit(.centimeterOfWater) }

    /// Standard atmospheres (`atm`), 101325 Pa.
    ///
    /// ```swift
    /// HealthUnit.atmosphere().unitString   // "atm"
    /// ```
    public static func atmosphere() -> HealthUnit { HealthUnit(.atmosphere) }

    /// Inches of mercury (`inHg`), 25.4 mmHg.
    ///
    /// ```swift
    /// HealthUnit.inchesOfMercury().unitString   // "inHg"
    /// ```
    public static func inchesOfMercury() -> HealthUnit { HealthUnit(.inchOfMercury) }

    /// International units (`IU`), a dimension of their own.
    ///
    /// ```swift
    /// HealthUnit.internationalUnit().unitString   // "IU"
    /// ```
    public static func internationalUnit() -> HealthUnit { HealthUnit(.internationalUnit) }

    /// Avoirdupois ounces (`oz`), 28.349523125 g.
    ///
    /// ```swift
    /// HealthUnit.ounce().unitString   // "oz"
    /// ```
    public static func ounce() -> HealthUnit { HealthUnit(.ounce) }

    /// Avoirdupois pounds (`lb`), 453.59237 g.
    ///
    /// ```swift
    /// HealthUnit.pound().unitString   // "lb"
    /// ```
    public static func pound() -> HealthUnit { HealthUnit(.pound) }

    /// Stones (`st`), 14 lb.
    ///
    /// ```swift
    /// HealthUnit.stone().unitString   // "st"
    /// ```
    public static func stone() -> HealthUnit { HealthUnit(.stone) }

    /// Inches (`in`), 2.54 cm.
    ///
    /// ```swift
    /// HealthUnit.inch().unitString   // "in"
    /// ```
    public static func inch() -> HealthUnit { HealthUnit(.inch) }

    /// Feet (`ft`), 0.3048 m.
    ///
    /// ```swift
    /// HealthUnit.foot().unitString   // "ft"
    /// ```
    public static func foot() -> HealthUnit { HealthUnit(.foot) }

    /// Yards (`yd`), 0.9144 m.
    ///
    /// ```swift
    /// HealthUnit.yard().unitString   // "yd"
    /// ```
    public static func yard() -> HealthUnit { HealthUnit(.yard) }

    /// Miles (`mi`), 1609.344 m.
    ///
    /// ```swift
    /// HealthUnit.mile().unitString   // "mi"
    /// ```
    public static func mile() -> HealthUnit { HealthUnit(.mile) }

    /// US fluid ounces (`fl_oz_us`), 29.5735295625 mL.
    ///
    /// ```swift
    /// HealthUnit.fluidOunceUS().unitString   // "fl_oz_us"
    /// ```
    public static func fluidOunceUS() -> HealthUnit { HealthUnit(.fluidOunceUS) }

    /// Imperial fluid ounces (`fl_oz_imp`), 28.4130625 mL.
    ///
    /// ```swift
    /// HealthUnit.fluidOunceImperial().unitString   // "fl_oz_imp"
    /// ```
    public static func fluidOunceImperial() -> HealthUnit { HealthUnit(.fluidOunceImperial) }

    /// US pints (`pt_us`), 16 US fluid ounces.
    ///
    /// ```swift
    /// HealthUnit.pintUS().unitString   // "pt_us"
    /// ```
    public static func pintUS() -> HealthUnit { HealthUnit(.pintUS) }

    /// Imperial pints (`pt_imp`), 20 imperial fluid ounces.
    ///
    /// ```swift
    /// HealthUnit.pintImperial().unitString   // "pt_imp"
    /// ```
    public static func pintImperial() -> HealthUnit { HealthUnit(.pintImperial) }

    /// US customary cups (`cup_us`), 8 US fluid ounces (236.5882365 mL).
    ///
    /// ```swift
    /// HealthUnit.cupUS().unitString   // "cup_us"
    /// ```
    public static func cupUS() -> HealthUnit { HealthUnit(.cupUS) }

    /// Imperial cups (`cup_imp`), 10 imperial fluid ounces (284.130625 mL).
    ///
    /// ```swift
    /// HealthUnit.cupImperial().unitString   // "cup_imp"
    /// ```
    public static func cupImperial() -> HealthUnit { HealthUnit(.cupImperial) }

    /// A-weighted sound pressure level in decibels (`dBASPL`).
    ///
    /// ```swift
    /// HealthUnit.decibelAWeightedSoundPressureLevel().unitString   // "dBASPL"
    /// ```
    public static func decibelAWeightedSoundPressureLevel() -> HealthUnit {
        HealthUnit(.decibelAWeightedSoundPressureLevel)
    }

    /// Hearing level in decibels (`dBHL`).
    ///
    /// ```swift
    /// HealthUnit.decibelHearingLevel().unitString   // "dBHL"
    /// ```
    public static func decibelHearingLevel() -> HealthUnit { HealthUnit(.decibelHearingLevel) }

    /// The unitless unit `()`: no factors, dimensionless.
    ///
    /// ```swift
    /// HealthUnit.unitless().unitString   // "()"
    /// ```
    public static func unitless() -> HealthUnit { HealthUnit(factors: [:]) }

    /// The molar mass of glucose in grams per mole, as HealthKit defines it (`HKUnitMolarMassBloodGlucose`).
    ///
    /// ```swift
    /// let mmolPerL = try HealthUnit.moleUnit(with: .milli, molarMass: HealthUnit.molarMassBloodGlucose)
    ///     .unitDivided(by: .liter())
    /// ```
    public static let molarMassBloodGlucose: Double = 180.15588000005408

    /// Moles of a substance with a molar mass, scaled by a metric prefix: a mass unit
    /// (`mol<M>` is M grams), which is what lets `mmol<180.15588000005408>/L` convert to `mg/dL`.
    ///
    /// ```swift
    /// let mmol = try HealthUnit.moleUnit(with: .milli, molarMass: HealthUnit.molarMassBloodGlucose)
    /// mmol.unitString   // "mmol<180.15588000005408>"
    /// ```
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
    /// ```swift
    /// let mol = try HealthUnit.moleUnit(withMolarMass: 18.01528)   // water
    /// ```
    ///
    /// - Parameter molarMass: Grams per mole; must be finite and positive.
    /// - Throws: `UnitError.invalidMolarMass` when `molarMass` is not finite and positive.
    public static func moleUnit(withMolarMass molarMass: Double) throws(UnitError) -> HealthUnit {
        try moleUnit(with: .none, molarMass: molarMass)
    }

    /// Moles without a molar mass (`mol`), scaled by a metric prefix: an amount of substance, which does
    /// not convert to mass (`mmol/L` is not compatible with `mg/dL`).
    ///
    /// ```swift
    /// HealthUnit.moleUnit(with: .milli).unitString   // "mmol"
    /// ```
    ///
    /// - Parameter prefix: The metric prefix.
    public static func moleUnit(with prefix: MetricPrefix) -> HealthUnit { HealthUnit(.mole, prefix: prefix) }
}
