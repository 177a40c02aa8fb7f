import HealthFlow

// The unit builders of HKUnit.h's categories (HKUnit's class methods), each the same unit as HealthFlow's builder.
extension HKUnit {
    /// The `meter` unit.
    public class func meter() -> Self { Self(healthFlowUnit: .meter()) }

    /// The `gram` unit.
    public class func gram() -> Self { Self(healthFlowUnit: .gram()) }

    /// The `liter` unit.
    public class func liter() -> Self { Self(healthFlowUnit: .liter()) }

    /// The `second` unit.
    public class func second() -> Self { Self(healthFlowUnit: .second()) }

    /// The `joule` unit.
    public class func joule() -> Self { Self(healthFlowUnit: .joule()) }

    /// The `pascal` unit.
    public class func pascal() -> Self { Self(healthFlowUnit: .pascal()) }

    /// The `kelvin` unit.
    public class func kelvin() -> Self { Self(healthFlowUnit: .kelvin()) }

    /// The `siemen` unit.
    public class func siemen() -> Self { Self(healthFlowUnit: .siemen()) }

    /// The `hertz` unit.
    public class func hertz() -> Self { Self(healthFlowUnit: .hertz()) }

    /// The `volt` unit.
    public class func volt() -> Self { Self(healthFlowUnit: .volt()) }

    /// The `count` unit.
    public class func count() -> Self { Self(healthFlowUnit: .count()) }

    /// The `percent` unit.
    public class func percent() -> Self { Self(healthFlowUnit: .percent()) }

    /// The `minute` unit.
    public class func minute() -> Self { Self(healthFlowUnit: .minute()) }

    /// The `hour` unit.
    public class func hour() -> Self { Self(healthFlowUnit: .hour()) }

    /// The `day` unit.
    public class func day() -> Self { Self(healthFlowUnit: .day()) }

    /// The `smallCalorie` unit.
    public class func smallCalorie() -> Self { Self(healthFlowUnit: .smallCalorie()) }

    /// The `kilocalorie` unit.
    public class func kilocalorie() -> Self { Self(healthFlowUnit: .kilocalorie()) }

    /// The `largeCalorie` unit.
    public class func largeCalorie() -> Self { Self(healthFlowUnit: .largeCalorie()) }

    /// The `degreeCelsius` unit.
    public class func degreeCelsius() -> Self { Self(healthFlowUnit: .degreeCelsius()) }

    /// The `degreeFahrenheit` unit.
    public class func degreeFahrenheit() -> Self { Self(healthFlowUnit: .degreeFahrenheit()) }

    /// The `millimeterOfMercury` unit.
    public class func millimeterOfMercury() -> Self { Self(healthFlowUnit: .millimeterOfMercury()) }

    /// The `centimeterOfWater` unit.
    public class func centimeterOfWater() -> Self { Self(healthFlowUnit: .centimeterOfWater()) }

    /// The `atmosphere` unit.
    public class func atmosphere() -> Self { Self(healthFlowUnit: .atmosphere()) }

    /// The `inchesOfMercury` unit.
    public class func inchesOfMercury() -> Self { Self(healthFlowUnit: .inchesOfMercury()) }

    /// The `internationalUnit` unit.
    public class func internationalUnit() -> Self { Self(healthFlowUnit: .internationalUnit()) }

    /// The `ounce` unit.
    public class func ounce() -> Self { Self(healthFlowUnit: .ounce()) }

    /// The `pound` unit.
    public class func pound() -> Self { Self(healthFlowUnit: .pound()) }

    /// The `stone` unit.
    public class func stone() -> Self { Self(healthFlowUnit: .stone()) }

    /// The `inch` unit.
    public class func inch() -> Self { Self(healthFlowUnit: .inch()) }

    /// The `foot` unit.
    public class func foot() -> Self { Self(healthFlowUnit: .foot()) }

    /// The `yard` unit.
    public class func yard() -> Self { Self(healthFlowUnit: .yard()) }

    /// The `mile` unit.
    public class func mile() -> Self { Self(healthFlowUnit: .mile()) }

    /// The `fluidOunceUS` unit.
    public class func fluidOunceUS() -> Self { Self(healthFlowUnit: .fluidOunceUS()) }

    /// The `fluidOunceImperial` unit.
    public class func fluidOunceImperial() -> Self { Self(healthFlowUnit: .fluidOunceImperial()) }

    /// The `pintUS` unit.
    public class func pintUS() -> Self { Self(healthFlowUnit: .pintUS()) }

    /// The `pintImperial` unit.
    public class func pintImperial() -> Self { Self(healthFlowUnit: .pintImperial()) }

    /// The `cupUS` unit.
    public class func cupUS() -> Self { Self(healthFlowUnit: .cupUS()) }

    /// The `cupImperial` unit.
    public class func cupImperial() -> Self { Self(healthFlowUnit: .cupImperial()) }

    /// The `decibelAWeightedSoundPressureLevel` unit.
    public class func decibelAWeightedSoundPressureLevel() -> Self {
        Self(healthFlowUnit: .decibelAWeightedSoundPressureLevel())
    }

    /// The `decibelHearingLevel` unit.
    public class func decibelHearingLevel() -> Self { Self(healthFlowUnit: .decibelHearingLevel()) }

    /// One of HealthFlow's prefixed builders, given HealthKit's prefix.
    private static func prefixed(_ build: (MetricPrefix) -> HealthUnit, _ prefix: HKMetricPrefix) -> Self {
        Self(healthFlowUnit: build(prefix.healthFlowPrefix))
    }

    /// The `meter` unit with a metric prefix.
    public class func meterUnit(with prefix: HKMetricPrefix) -> Self { prefixed(HealthUnit.meterUnit, prefix) }

    /// The `gram` unit with a metric prefix.
    public class func gramUnit(with prefix: HKMetricPrefix) -> Self { prefixed(HealthUnit.gramUnit, prefix) }

    /// The `liter` unit with a metric prefix.
    public class func literUnit(with prefix: HKMetricPrefix) -> Self { prefixed(HealthUnit.literUnit, prefix) }

    /// The `second` unit with a metric prefix.
    public class func secondUnit(with prefix: HKMetricPrefix) -> Self { prefixed(HealthUnit.secondUnit, prefix) }

    /// The `joule` unit with a metric prefix.
    public class func jouleUnit(with prefix: HKMetricPrefix) -> Self { prefixed(HealthUnit.jouleUnit, prefix) }

    /// The `pascal` unit with a metric prefix.
    public class func pascalUnit(with prefix: HKMetricPrefix) -> Self { prefixed(HealthUnit.pascalUnit, prefix) }

    /// The `kelvin` unit with a metric prefix.
    public class func kelvinUnit(with prefix: HKMetricPrefix) -> Self { prefixed(HealthUnit.kelvinUnit, prefix) }

    /// The `siemen` unit with a metric prefix.
    public class func siemenUnit(with prefix: HKMetricPrefix) -> Self { prefixed(HealthUnit.siemenUnit, prefix) }

    /// The `hertz` unit with a metric prefix.
    public class func hertzUnit(with prefix: HKMetricPrefix) -> Self { prefixed(HealthUnit.hertzUnit, prefix) }

    /// The `volt` unit with a metric prefix.
    public class func voltUnit(with prefix: HKMetricPrefix) -> Self { prefixed(HealthUnit.voltUnit, prefix) }

    /// Moles of a substance with the given molar mass (g/mol), with a metric prefix: `mmol<180.15588…>`.
    public class func moleUnit(with prefix: HKMetricPrefix, molarMass gramsPerMole: Double) -> Self {
        do {
            return Self(healthFlowUnit: try .moleUnit(with: prefix.healthFlowPrefix, molarMass: gramsPerMole))
        } catch {
            HKShimException.raise("Invalid molar mass \(gramsPerMole)")
        }
    }

    /// Moles of a substance with the given molar mass (g/mol).
    public class func moleUnit(withMolarMass gramsPerMole: Double) -> Self {
        moleUnit(with: .none, molarMass: gramsPerMole)
    }
}

/// The molar mass of glucose in g/mol, for `mmol<…>/L` blood glucose units.
public let HKUnitMolarMassBloodGlucose: Double = 180.15588000005408
