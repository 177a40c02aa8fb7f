import HealthFlow
import Testing

struct HealthUnitConversionTests {
    /// (value, from, to, expected) — compared with a relative tolerance of 1e-12.
    static let conversions: [(Double, String, String, Double)] = [
        (172, "cm", "m", 1.72),
        (1.72, "m", "cm", 172),
        (1, "km", "m", 1000),
        (1, "m", "mm", 1000),
        (1, "mcg", "g", 1e-6),
        (1, "fg", "g", 1e-15),
        (1, "Tg", "g", 1e12),
        (250, "mL", "L", 0.25),
        (1, "L", "m^3", 0.001),
        (1, "dL", "mL", 100),
        (1, "lb", "kg", 0.45359237),
        (1, "oz", "g", 28.349523125),
        (1, "st", "lb", 14),
        (1, "in", "cm", 2.54),
        (1, "ft", "in", 12),
        (1, "yd", "ft", 3),
        (1, "mi", "km", 1.609344),
        (1, "fl_oz_us", "mL", 29.5735295625),
        (1, "fl_oz_imp", "mL", 28.4130625),
        (1, "pt_us", "fl_oz_us", 16),
        (1, "pt_imp", "fl_oz_imp", 20),
        (1, "cup_us", "fl_oz_us", 8),
        (1, "cup_imp", "fl_oz_imp", 10),
        (1, "hr", "min", 60),
        (1, "d", "s", 86400),
        (90, "min", "hr", 1.5),
        (1, "kcal", "J", 4184),
        (1, "Cal", "kcal", 1),
        (1000, "cal", "kcal", 1),
        (1, "kcal", "kJ", 4.184),
        (1, "atm", "Pa", 101_325),
        (1, "mmHg", "Pa", 133.322387415),
        (1, "inHg", "mmHg", 25.4),
        (1, "cmAq", "Pa", 98.0665),
        (120, "mmHg", "kPa", 15.9986864898),
        (1, "Hz", "s^-1", 1),
        (1, "kHz", "Hz", 1000),
        (1000, "mcV", "mV", 1),
        (50, "%", "count", 0.5),
        (1, "count", "%", 100),
        (72, "count/min", "count/s", 1.2),
        (1.2, "count/s", "count/min", 72),
        (1, "mL/(kg*min)", "L/(kg*hr)", 0.06),
        (1, "kg/m.s^2", "Pa", 1),
        (1, "mmol<180.15588000005408>/L", "mg/dL", 18.015588000005408),
        (100, "mg/dL", "mmol<180.15588000005408>/L", 1000 / 180.15588000005408),
        (1, "mol<180.15588000005408>", "g", 180.15588000005408),
        (1, "mol<18>", "mol<36>", 0.5),
        (1, "degC/min", "K/s", 1.0 / 60),
        (9, "degF/hr", "K/hr", 5),
        (2, "IU/hr", "IU/d", 48),
    ]

    @Test(arguments: conversions)
    func convertsExactly(value: Double, from: String, to: String, expected: Double) throws {
        let result = try HealthUnit.convert(value, from: HealthUnit(from: from), to: HealthUnit(from: to))
        #expect(approximately(result, expected), "\(value) \(from) → \(result) \(to), expected \(expected)")
    }

    @Test func prefixConversionsRoundOnlyOnce() throws {
        #expect(try HealthUnit.convert(172, from: .meterUnit(with: .centi), to: .meter()) == 1.72)
        #expect(try HealthUnit.convert(0.1, from: .gram(), to: .gramUnit(with: .milli)) == 100)
        #expect(try HealthUnit.convert(330, from: .literUnit(with: .milli), to: .liter()) == 0.33)
    }

    /// Bare temperatures convert with offsets.
    static let temperatures: [(Double, String, String, Double)] = [
        (0, "degC", "K", 273.15),
        (273.15, "K", "degC", 0),
        (37, "degC", "degF", 98.6),
        (98.6, "degF", "degC", 37),
        (-40, "degC", "degF", -40),
        (32, "degF", "K", 273.15),
        (0, "K", "degF", -459.67),
        (300, "K", "degF", 80.33),
        (310150, "mK", "degC", 37),
        (37, "degC", "mK", 310_150),
        (1, "kK", "K", 1000),
        (100, "degF", "degF", 100),
    ]

    @Test(arguments: temperatures)
    func convertsBareTemperaturesWithOffsets(value: Double, from: String, to: String, expected: Double) throws {
        let result = try HealthUnit.convert(value, from: HealthUnit(from: from), to: HealthUnit(from: to))
        #expect(approximately(result, expected), "\(value) \(from) → \(result) \(to), expected \(expected)")
    }

    @Test func temperatureOffsetsDoNotApplyInsideCompounds() throws {
        // A rate of change is a temperature difference: 1 degC/min is 1 K/min, not 274.15.
        #expect(try HealthUnit.convert(1, from: HealthUnit(from: "degC/min"), to: HealthUnit(from: "K/min")) == 1)
        #expect(try HealthUnit.convert(1, from: HealthUnit(from: "degC^2"), to: HealthUnit(from: "K^2")) == 1)
    }

    @Test func bloodGlucoseConvertsThroughTheMolarMass() throws {
        let mgPerDL = try HealthUnit(from: "mg/dL")
        let mmolPerL = try HealthUnit.moleUnit(with: .milli, molarMass: HealthUnit.molarMassBloodGlucose)
            .unitDivided(by: .liter())
        #expect(mmolPerL == (try HealthUnit(from: "mmol<180.15588000005408>/L")))
        let value = try HealthUnit.convert(1, from: mmolPerL, to: mgPerDL)
        #expect(abs(value - 18.0156) < 1e-4)
    }

    /// Pairs that must not convert.
    static let incompatible: [(String, String)] = [
        ("mmol/L", "mg/dL"),
        ("mol", "mol<180.15588000005408>"),
        ("g", "count"),
        ("count", "()"),
        ("count/s", "Hz"),
        ("IU", "count"),
        ("kcal", "kg"),
        ("mL", "m"),
        ("degC", "degC/min"),
        ("dBASPL", "dBHL"),
        ("S", "V"),
        ("mmHg", "kg"),
        ("mL/(kg*min)", "mL/min"),
    ]

    @Test(arguments: incompatible)
    func refusesToConvertBetweenDimensions(from: String, to: String) throws {
        let source = try HealthUnit(from: from)
        let target = try HealthUnit(from: to)
        #expect(!source.isCompatible(with: target))
        #expect(throws: UnitError.incompatible(from: source, to: target)) {
            try HealthUnit.convert(1, from: source, to: target)
        }
    }

    @Test func dimensionsAreNamed() throws {
        #expect(HealthUnit.literUnit(with: .milli).dimension == .volume)
        #expect(try HealthUnit(from: "kcal").dimension == .energy)
        #expect(try HealthUnit(from: "mmHg").dimension == .pressure)
        #expect(try HealthUnit(from: "kg/m.s^2").dimension == .pressure)
        #expect(HealthUnit.hertz().dimension == .frequency)
        #expect(try HealthUnit(from: "mg/dL").dimension.description == "mass·length^-3")
        #expect(try HealthUnit(from: "mol<180>").dimension == .mass)
        #expect(try HealthUnit(from: "mol").dimension == .amountOfSubstance)
        #expect(HealthUnit.percent().dimension == .count)
    }

    /// A dimension keeps exactly its non-zero exponents, whichever way it was made, and products saturate.
    @Test func dimensionsKeepTheirNonZeroExponents() throws {
        let pressure = UnitDimension(exponents: [.mass: 1, .length: -1, .time: -2, .count: 0])
        #expect(pressure == .pressure && pressure.hashValue == UnitDimension.pressure.hashValue)
        #expect(pressure.exponents == [.mass: 1, .length: -1, .time: -2])
        #expect(try HealthUnit(from: "kg/m.s^2").dimension.exponents == pressure.exponents)
        #expect(try HealthUnit(from: "m/m").dimension == .dimensionless && UnitDimension.dimensionless.exponents == [:])
        for base in UnitDimension.Base.allCases {
            #expect(UnitDimension(exponents: [base: -3]).exponents == [base: -3])
        }
        let huge = try HealthUnit(from: "m^9223372036854775807.s^-9223372036854775808.count^2")
        #expect(huge.dimension.exponents == [.length: .max, .time: .min, .count: 2])
        #expect(huge.unitRaised(toPower: 2).dimension.exponents == [.length: .max, .time: .min, .count: 4])
        #expect(try huge.isCompatible(with: HealthUnit(from: "count^2.m^9223372036854775807.s^-9223372036854775808")))
        #expect(try !HealthUnit(from: "count/min").isCompatible(with: HealthUnit(from: "Hz")))
        let decibels = try HealthUnit(from: "dBHL^2/dBASPL")
        #expect(decibels.dimension.exponents == [.hearingLevel: 2, .soundPressureLevel: -1])
        #expect(try HealthUnit(from: "count/min").isCompatible(with: HealthUnit(from: "count/s")))
    }

    @Test func equalityComparesNormalisedFactorMaps() throws {
        #expect(try HealthUnit(from: "mL/(kg*min)") == (try HealthUnit(from: "mL/min.kg")))
        #expect(try HealthUnit(from: "ml") == HealthUnit.literUnit(with: .milli))
        #expect(try HealthUnit(from: "m*s/s") == HealthUnit.meter())
        #expect(HealthUnit.kilocalorie() != HealthUnit.largeCalorie())
        #expect(HealthUnit.gramUnit(with: .kilo) != HealthUnit.gram())
        #expect(try HealthUnit.convert(3, from: .kilocalorie(), to: .largeCalorie()) == 3)
    }

    @Test func nonFiniteValuesPassThrough() throws {
        #expect(try HealthUnit.convert(.infinity, from: .meter(), to: .foot()) == .infinity)
        #expect(try HealthUnit.convert(.nan, from: .meter(), to: .foot()).isNaN)
    }
}
