import HealthFlow

// The unit builders of HKUnit.h's categories (HKUnit's class methods), each the same unit as HealthFlow's builder.
extension HKUnit {
    /// The `meter` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.meter()
    /// ```
    public class func meter() -> Self { Self(healthFlowUnit: .meter()) }

    /// The `gram` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.gram()
    /// ```
    public class func gram() -> Self { Self(healthFlowUnit: .gram()) }

    /// The `liter` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.liter()
    /// ```
    public class func liter() -> Self { Self(healthFlowUnit: .liter()) }

    /// The `second` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.second()
    /// ```
    public class func second() -> Self { Self(healthFlowUnit: .second()) }

    /// The `joule` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.joule()
    /// ```
    public class func joule() -> Self { Self(healthFlowUnit: .joule()) }

    /// The `pascal` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.pascal()
    /// ```
    public class func pascal() -> Self { Self(healthFlowUnit: .pascal()) }

    /// The `kelvin` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.kelvin()
    /// ```
    public class func kelvin() -> Self { Self(healthFlowUnit: .kelvin()) }

    /// The `siemen` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.siemen()
    /// ```
    public class func siemen() -> Self { Self(healthFlowUnit: .siemen()) }

    /// The `hertz` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.hertz()
    /// ```
    public class func hertz() -> Self { Self(healthFlowUnit: .hertz()) }

    /// The `volt` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.volt()
    /// ```
    public class func volt() -> Self { Self(healthFlowUnit: .volt()) }

    /// The `count` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.count()
    /// ```
    public class func count() -> Self { Self(healthFlowUnit: .count()) }

    /// The `percent` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.percent()
    /// ```
    public class func percent() -> Self { Self(healthFlowUnit: .percent()) }

    /// The `minute` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.minute()
    /// ```
    public class func minute() -> Self { Self(healthFlowUnit: .minute()) }

    /// The `hour` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.hour()
    /// ```
    public class func hour() -> Self { Self(healthFlowUnit: .hour()) }

    /// The `day` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.day()
    /// ```
    public class func day() -> Self { Self(healthFlowUnit: .day()) }

    /// The `smallCalorie` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.smallCalorie()
    /// ```
    public class func smallCalorie() -> Self { Self(healthFlowUnit: .smallCalorie()) }

    /// The `kilocalorie` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.kilocalorie()
    /// ```
    public class func kilocalorie() -> Self { Self(healthFlowUnit: .kilocalorie()) }

    /// The `largeCalorie` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.largeCalorie()
    /// ```
    public class func largeCalorie() -> Self { Self(healthFlowUnit: .largeCalorie()) }

    /// The `degreeCelsius` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.degreeCelsius()
    /// ```
    public class func degreeCelsius() -> Self { Self(healthFlowUnit: .degreeCelsius()) }

    /// The `degreeFahrenheit` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.degreeFahrenheit()
    /// ```
    public class func degreeFahrenheit() -> Self { Self(healthFlowUnit: .degreeFahrenheit()) }

    /// The `millimeterOfMercury` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.millimeterOfMercury()
    /// ```
    public class func millimeterOfMercury() -> Self { Self(healthFlowUnit: .millimeterOfMercury()) }

    /// The `centimeterOfWater` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.centimeterOfWater()
    /// ```
    public class func centimeterOfWater() -> Self { Self(healthFlowUnit: .centimeterOfWater()) }

    /// The `atmosphere` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.atmosphere()
    /// ```
    public class func atmosphere() -> Self { Self(healthFlowUnit: .atmosphere()) }

    /// The `inchesOfMercury` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.inchesOfMercury()
    /// ```
    public class func inchesOfMercury() -> Self { Self(healthFlowUnit: .inchesOfMercury()) }

    /// The `internationalUnit` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.internationalUnit()
    /// ```
    public class func internationalUnit() -> Self { Self(healthFlowUnit: .internationalUnit()) }

    /// The `ounce` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.ounce()
    /// ```
    public class func ounce() -> Self { Self(healthFlowUnit: .ounce()) }

    /// The `pound` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.pound()
    /// ```
    public class func pound() -> Self { Self(healthFlowUnit: .pound()) }

    /// The `stone` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.stone()
    /// ```
    public class func stone() -> Self { Self(healthFlowUnit: .stone()) }

    /// The `inch` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.inch()
    /// ```
    public class func inch() -> Self { Self(healthFlowUnit: .inch()) }

    /// The `foot` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.foot()
    /// ```
    public class func foot() -> Self { Self(healthFlowUnit: .foot()) }

    /// The `yard` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.yard()
    /// ```
    public class func yard() -> Self { Self(healthFlowUnit: .yard()) }

    /// The `mile` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.mile()
    /// ```
    public class func mile() -> Self { Self(healthFlowUnit: .mile()) }

    /// The `fluidOunceUS` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.fluidOunceUS()
    /// ```
    public class func fluidOunceUS() -> Self { Self(healthFlowUnit: .fluidOunceUS()) }

    /// The `fluidOunceImperial` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.fluidOunceImperial()
    /// ```
    public class func fluidOunceImperial() -> Self { Self(healthFlowUnit: .fluidOunceImperial()) }

    /// The `pintUS` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.pintUS()
    /// ```
    public class func pintUS() -> Self { Self(healthFlowUnit: .pintUS()) }

    /// The `pintImperial` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.pintImperial()
    /// ```
    public class func pintImperial() -> Self { Self(healthFlowUnit: .pintImperial()) }

    /// The `cupUS` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.cupUS()
    /// ```
    public class func cupUS() -> Self { Self(healthFlowUnit: .cupUS()) }

    /// The `cupImperial` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.cupImperial()
    /// ```
    public class func cupImperial() -> Self { Self(healthFlowUnit: .cupImperial()) }

    /// The `decibelAWeightedSoundPressureLevel` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.decibelAWeightedSoundPressureLevel()
    /// ```
    public class func decibelAWeightedSoundPressureLevel() -> Self {
        Self(healthFlowUnit: .decibelAWeightedSoundPressureLevel())
    }

    /// The `decibelHearingLevel` unit.
    ///
    /// ```swift
    /// let unit = HKUnit.decibelHearingLevel()
    /// ```
    public class func decibelHearingLevel() -> Self { Self(healthFlowUnit: .decibelHearingLevel()) }

    /// The `meter` unit with a metric prefix.
    ///
    /// ```swift
    /// let unit = HKUnit.meterUnit(with: .milli)
    /// ```
    public class func meterUnit(with prefix: HKMetricPrefix) -> Self {
        Self(healthFlowUnit: .meterUnit(with: prefix.healthFlowPrefix))
    }

    /// The `gram` unit with a metric prefix.
    ///
    /// ```swift
    /// let unit = HKUnit.gramUnit(with: .milli)
    /// ```
    public class func gramUnit(with prefix: HKMetricPrefix) -> Self {
        Self(healthFlowUnit: .gramUnit(with: prefix.healthFlowPrefix))
    }

    /// The `liter` unit with a metric prefix.
    ///
    /// ```swift
    /// let unit = HKUnit.literUnit(with: .milli)
    /// ```
    public class func literUnit(with prefix: HKMetricPrefix) -> Self {
        Self(healthFlowUnit: .literUnit(with: prefix.healthFlowPrefix))
    }

    /// The `second` unit with a metric prefix.
    ///
    /// ```swift
    /// let unit = HKUnit.secondUnit(with: .milli)
    /// ```
    public class func secondUnit(with prefix: HKMetricPrefix) -> Self {
        Self(healthFlowUnit: .secondUnit(with: prefix.healthFlowPrefix))
    }

    /// The `joule` unit with a metric prefix.
    ///
    /// ```swift
    /// let unit = HKUnit.jouleUnit(with: .milli)
    /// ```
    public class func jouleUnit(with prefix: HKMetricPrefix) -> Self {
        Self(healthFlowUnit: .jouleUnit(with: prefix.healthFlowPrefix))
    }

    /// The `pascal` unit with a metric prefix.
    ///
    /// ```swift
    /// let unit = HKUnit.pascalUnit(with: .milli)
    /// ```
    public class func pascalUnit(with prefix: HKMetricPrefix) -> Self {
        Self(healthFlowUnit: .pascalUnit(with: prefix.healthFlowPrefix))
    }

    /// The `kelvin` unit with a metric prefix.
    ///
    /// ```swift
    /// let unit = HKUnit.kelvinUnit(with: .milli)
    /// ```
    public class func kelvinUnit(with prefix: HKMetricPrefix) -> Self {
        Self(healthFlowUnit: .kelvinUnit(with: prefix.healthFlowPrefix))
    }

    /// The `siemen` unit with a metric prefix.
    ///
    /// ```swift
    /// let unit = HKUnit.siemenUnit(with: .milli)
    /// ```
    public class func siemenUnit(with prefix: HKMetricPrefix) -> Self {
        Self(healthFlowUnit: .siemenUnit(with: prefix.healthFlowPrefix))
    }

    /// The `hertz` unit with a metric prefix.
    ///
    /// ```swift
    /// let unit = HKUnit.hertzUnit(with: .milli)
    /// ```
    public class func hertzUnit(with prefix: HKMetricPrefix) -> Self {
        Self(healthFlowUnit: .hertzUnit(with: prefix.healthFlowPrefix))
    }

    /// The `volt` unit with a metric prefix.
    ///
    /// ```swift
    /// let unit = HKUnit.voltUnit(with: .milli)
    /// ```
    public class func voltUnit(with prefix: HKMetricPrefix) -> Self {
        Self(healthFlowUnit: .voltUnit(with: prefix.healthFlowPrefix))
    }

    /// Moles of a substance with the given molar mass (g/mol), with a metric prefix: `mmol<180.15588…>`.
    ///
    /// ```swift
    /// let glucose = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter())
    /// ```
    public class func moleUnit(with prefix: HKMetricPrefix, molarMass gramsPerMole: Double) -> Self {
        do {
            return Self(healthFlowUnit: try .moleUnit(with: prefix.healthFlowPrefix, molarMass: gramsPerMole))
        } catch {
            HKShimException.raise("Invalid molar mass \(gramsPerMole)")
        }
    }

    /// Moles of a substance with the given molar mass (g/mol).
    ///
    /// ```swift
    /// let unit = HKUnit.moleUnit(withMolarMass: HKUnitMolarMassBloodGlucose)
    /// ```
    public class func moleUnit(withMolarMass gramsPerMole: Double) -> Self {
        moleUnit(with: .none, molarMass: gramsPerMole)
    }
}

/// The molar mass of glucose in g/mol, for `mmol<…>/L` blood glucose units.
///
/// ```swift
/// HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose)
/// ```
public let HKUnitMolarMassBloodGlucose: Double = 180.15588000005408
