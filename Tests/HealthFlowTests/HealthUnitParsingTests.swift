import HealthFlow
import Testing

struct HealthUnitParsingTests {
    /// Strings that parse, with the unit string each prints as.
    static let valid: [(String, String)] = [
        ("g", "g"), ("kg", "kg"), ("mcg", "mcg"), ("mg", "mg"), ("ng", "ng"), ("pg", "pg"), ("fg", "fg"),
        ("dag", "dag"), ("hg", "hg"), ("Mg", "Mg"), ("Gg", "Gg"), ("Tg", "Tg"), ("cg", "cg"), ("dg", "dg"),
        ("m", "m"), ("cm", "cm"), ("mm", "mm"), ("km", "km"), ("dam", "dam"),
        ("L", "L"), ("l", "L"), ("mL", "mL"), ("ml", "mL"), ("dL", "dL"), ("mcL", "mcL"),
        ("Pa", "Pa"), ("kPa", "kPa"), ("hPa", "hPa"), ("s", "s"), ("ms", "ms"), ("J", "J"), ("kJ", "kJ"),
        ("K", "K"), ("S", "S"), ("mS", "mS"), ("Hz", "Hz"), ("kHz", "kHz"), ("V", "V"), ("mcV", "mcV"),
        ("mol", "mol"), ("mmol", "mmol"),
        ("mmol<180.15588000005408>", "mmol<180.15588000005408>"), ("mol<18>", "mol<18>"),
        ("oz", "oz"), ("lb", "lb"), ("st", "st"), ("in", "in"), ("ft", "ft"), ("yd", "yd"), ("mi", "mi"),
        ("mmHg", "mmHg"), ("cmAq", "cmAq"), ("atm", "atm"), ("inHg", "inHg"), ("dBASPL", "dBASPL"),
        ("dBHL", "dBHL"), ("fl_oz_us", "fl_oz_us"), ("fl_oz_imp", "fl_oz_imp"), ("pt_us", "pt_us"),
        ("pt_imp", "pt_imp"), ("cup_us", "cup_us"), ("cup_imp", "cup_imp"), ("min", "min"), ("hr", "hr"),
        ("d", "d"), ("cal", "cal"), ("kcal", "kcal"), ("Cal", "Cal"), ("degC", "degC"), ("degF", "degF"),
        ("IU", "IU"), ("count", "count"), ("%", "%"), ("()", "()"),
        ("count/min", "count/min"), ("count/s", "count/s"), ("mg/dL", "mg/dL"),
        ("mL/(kg*min)", "mL/min·kg"), ("mL/kg.min", "mL/min·kg"), ("mL/min·kg", "mL/min·kg"),
        ("kg/m.s^2", "kg/m·s^2"), ("kg/(m.s^2)", "kg/m·s^2"), ("m^2", "m^2"), ("m.m", "m^2"),
        ("s^-1", "s^-1"), ("s^-2*m", "m/s^2"), ("m/s^2", "m/s^2"), ("kg*m^2/s^2", "m^2·kg/s^2"),
        ("(kg*m)^2", "m^2·kg^2"), ("kcal/(kg*hr)", "kcal/hr·kg"), ("m/m", "()"), ("()/s", "s^-1"),
        ("IU/hr", "IU/hr"), ("mmol<180.15588000005408>/L", "mmol<180.15588000005408>/L"), ("m^0", "()"),
        ("((m))", "m"), ("kcal·d^-1", "kcal/d"),
    ]

    @Test(arguments: valid)
    func parsesAndPrintsInHealthKitStyle(input: String, printed: String) throws {
        let unit = try HealthUnit(from: input)
        #expect(unit.unitString == printed)
    }

    @Test(arguments: valid.map(\.0))
    func printedFormParsesBackToAnEqualUnit(input: String) throws {
        let unit = try HealthUnit(from: input)
        #expect(try HealthUnit(from: unit.unitString) == unit)
    }

    /// Malformed strings, with the reason each must report.
    static let malformed: [(String, String)] = [
        ("mL/kg/min", "more than one '/'"),
        ("count/hour/x", "more than one '/'"),
        ("", "empty unit string"),
        ("mL/", "missing denominator after '/'"),
        ("/s", "unexpected '/' at offset 0"),
        ("m^", "'^' must be followed by an integer"),
        ("m^-", "'^' must be followed by an integer"),
        ("m^+2", "'^' must be followed by an integer"),
        ("m^99999999999999999999", "exponent 99999999999999999999 is out of range"),
        ("(kg", "missing ')'"),
        ("kg)", "unbalanced ')'"),
        ("(mL/kg)", "'/' inside parentheses; only a whole denominator may be parenthesised"),
        ("kg m", "unexpected whitespace at offset 2"),
        (" kg", "unexpected whitespace at offset 0"),
        ("2m", "unexpected '2' at offset 0"),
        ("m2", "unexpected '2' at offset 1"),
        ("kg**m", "unexpected '*' at offset 3"),
        ("mmol<", "missing '>' after molar mass"),
        ("mmol<abc>", "molar mass 'abc' is not a positive number"),
        ("mmol<-5>", "molar mass '-5' is not a positive number"),
        ("mmol<0>", "molar mass '0' is not a positive number"),
        ("mmol<nan>", "molar mass 'nan' is not a positive number"),
        ("g<180>", "a molar mass is only allowed on mol, not on g"),
        ("m^2^3", "unexpected '^' at offset 3"),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedStringsWithAReason(input: String, reason: String) {
        #expect(throws: UnitError.malformed(input, reason: reason)) {
            try HealthUnit(from: input)
        }
    }

    @Test(arguments: ["ug", "µg", "μg", "hour", "hours", "sec", "kcalories", "mcal", "kmin", "kcount", "Kg", "xyz"])
    func rejectsUnknownUnitNames(name: String) {
        #expect(throws: UnitError.unknownUnit(name)) {
            try HealthUnit(from: name)
        }
    }

    @Test func countPerHourIsAnErrorBecauseHourIsHr() throws {
        #expect(throws: UnitError.unknownUnit("hour")) { try HealthUnit(from: "count/hour") }
        #expect(try HealthUnit(from: "count/hr") == HealthUnit.count().unitDivided(by: .hour()))
    }

    @Test func vo2MaxUnitParsesParenthesisedButNotChainedDivision() throws {
        let parenthesised = try HealthUnit(from: "mL/(kg*min)")
        #expect(parenthesised == (try HealthUnit(from: "mL/min.kg")))
        #expect(throws: UnitError.malformed("mL/kg/min", reason: "more than one '/'")) {
            try HealthUnit(from: "mL/kg/min")
        }
    }

    @Test func multiplicationBindsBeforeDivision() throws {
        #expect(try HealthUnit(from: "kg/m.s^2") == (try HealthUnit(from: "kg/(m*s^2)")))
        #expect(try HealthUnit(from: "kg/m.s^2") != (try HealthUnit(from: "kg.s^2/m")))
    }

    @Test func allThreeSeparatorsAreEquivalent() throws {
        let star = try HealthUnit(from: "kg*m")
        #expect(try HealthUnit(from: "kg.m") == star)
        #expect(try HealthUnit(from: "kg·m") == star)
    }

    @Test func emptyParenthesesAreTheUnitlessUnit() throws {
        let unit = try HealthUnit(from: "()")
        #expect(unit.isUnitless)
        #expect(unit == HealthUnit.unitless())
        #expect(unit.dimension == .dimensionless)
    }

    @Test func deeplyNestedParenthesesFailInsteadOfOverflowingTheStack() {
        let input = String(repeating: "(", count: 10_000) + "m" + String(repeating: ")", count: 10_000)
        #expect(throws: UnitError.malformed(input, reason: "parentheses nested too deeply")) {
            try HealthUnit(from: input)
        }
    }

    @Test func hugeExponentsSaturateInsteadOfTrapping() throws {
        let unit = try HealthUnit(from: "m^9223372036854775807*m")
        #expect(unit.unitString == "m^9223372036854775807")
        #expect(unit.unitRaised(toPower: -2).unitString == "m^-9223372036854775808")
        #expect(throws: Never.self) { try HealthUnit.convert(1, from: unit, to: unit) }
    }

    @Test func errorDescriptionsQuoteTheInput() {
        #expect(
            UnitError.malformed("mL/kg/min", reason: "more than one '/'").description
                == "unit string \"mL/kg/min\" is malformed: more than one '/'")
        #expect(UnitError.unknownUnit("ug").description == "unknown unit \"ug\"")
        #expect(
            UnitError.incompatible(from: .gram(), to: .count()).description
                == "cannot convert g (mass) to count (count): incompatible units")
    }
}
