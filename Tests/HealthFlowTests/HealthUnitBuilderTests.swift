import Foundation
import HealthFlow
import Testing

struct HealthUnitBuilderTests {
    static let builders: [(HealthUnit, String)] = [
        (.meter(), "m"), (.meterUnit(with: .centi), "cm"), (.gram(), "g"), (.gramUnit(with: .kilo), "kg"),
        (.gramUnit(with: .micro), "mcg"), (.liter(), "L"), (.literUnit(with: .milli), "mL"),
        (.literUnit(with: .deci), "dL"), (.count(), "count"), (.percent(), "%"), (.second(), "s"),
        (.secondUnit(with: .milli), "ms"), (.minute(), "min"), (.hour(), "hr"), (.day(), "d"),
        (.kilocalorie(), "kcal"), (.largeCalorie(), "Cal"), (.smallCalorie(), "cal"), (.joule(), "J"),
        (.jouleUnit(with: .kilo), "kJ"), (.degreeCelsius(), "degC"), (.degreeFahrenheit(), "degF"),
        (.kelvin(), "K"), (.millimeterOfMercury(), "mmHg"), (.centimeterOfWater(), "cmAq"),
        (.atmosphere(), "atm"), (.inchesOfMercury(), "inHg"), (.pascal(), "Pa"), (.pascalUnit(with: .kilo), "kPa"),
        (.internationalUnit(), "IU"), (.ounce(), "oz"), (.pound(), "lb"), (.stone(), "st"), (.inch(), "in"),
        (.foot(), "ft"), (.yard(), "yd"), (.mile(), "mi"), (.fluidOunceUS(), "fl_oz_us"),
        (.fluidOunceImperial(), "fl_oz_imp"), (.pintUS(), "pt_us"), (.pintImperial(), "pt_imp"),
        (.cupUS(), "cup_us"), (.cupImperial(), "cup_imp"), (.siemen(), "S"), (.siemenUnit(with: .micro), "mcS"),
        (.hertz(), "Hz"), (.hertzUnit(with: .kilo), "kHz"), (.volt(), "V"), (.voltUnit(with: .micro), "mcV"),
        (.decibelAWeightedSoundPressureLevel(), "dBASPL"), (.decibelHearingLevel(), "dBHL"), (.unitless(), "()"),
        (.moleUnit(with: .milli), "mmol"),
    ]

    @Test(arguments: builders)
    func builderMatchesItsUnitString(unit: HealthUnit, string: String) throws {
        #expect(unit.unitString == string)
        #expect(try HealthUnit(from: string) == unit)
    }

    @Test func moleBuildersCarryTheMolarMass() throws {
        let glucose = try HealthUnit.moleUnit(with: .milli, molarMass: HealthUnit.molarMassBloodGlucose)
        #expect(glucose.unitString == "mmol<180.15588000005408>")
        #expect(try HealthUnit.moleUnit(withMolarMass: 18).unitString == "mol<18>")
        #expect(glucose.dimension == .mass)
    }

    @Test(arguments: [0, -1, Double.nan, .infinity])
    func moleBuilderRejectsInvalidMolarMass(molarMass: Double) {
        #expect(throws: UnitError.self) { try HealthUnit.moleUnit(withMolarMass: molarMass) }
    }

    @Test func arithmeticCombinesExponents() {
        let vo2 = HealthUnit.literUnit(with: .milli)
            .unitDivided(by: HealthUnit.gramUnit(with: .kilo).unitMultiplied(by: .minute()))
        #expect(vo2.unitString == "mL/min·kg")
        #expect(HealthUnit.meter().unitRaised(toPower: 3).unitString == "m^3")
        #expect(HealthUnit.meter().unitRaised(toPower: 0) == .unitless())
        #expect(HealthUnit.second().reciprocal().unitString == "s^-1")
        #expect(HealthUnit.second().reciprocal().reciprocal() == .second())
        #expect(HealthUnit.count().unitDivided(by: .count()) == .unitless())
        #expect(vo2.reciprocal().unitString == "min·kg/mL")
    }

    @Test func unitsEncodeAsTheirUnitString() throws {
        let unit = try HealthUnit(from: "mL/(kg*min)")
        let data = try JSONEncoder().encode([unit])
        #expect(String(decoding: data, as: UTF8.self) == #"["mL\/min·kg"]"#)
        #expect(try JSONDecoder().decode([HealthUnit].self, from: data) == [unit])
    }

    @Test func decodingAnInvalidUnitStringFailsWithTheParsersReason() throws {
        let parseError = #expect(throws: UnitError.self) { try HealthUnit(from: "mL/kg/min") }
        do {
            _ = try JSONDecoder().decode([HealthUnit].self, from: Data(#"["mL/kg/min"]"#.utf8))
            Issue.record("an invalid unit string decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == parseError?.description)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
