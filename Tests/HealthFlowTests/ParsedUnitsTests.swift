import Testing

@testable import HealthFlow

/// The table of parsed units readers share: a spelling is parsed once and means what `HealthUnit(from:)` says.
struct ParsedUnitsTests {
    @Test func aSpellingIsTheUnitItParsesToEveryTime() throws {
        var units = ParsedUnits()
        for text in ["mg/dL", "count/min", "mmol<180.1558800000541>/L", "mg/dL", "degC", "count/min"] {
            #expect(try units.unit(text) == HealthUnit(from: text), "\(text)")
        }
    }

    @Test func anUnknownSpellingThrowsEachTimeItIsAsked() {
        var units = ParsedUnits()
        for _ in 0..<2 {
            #expect(throws: UnitError.self) { try units.unit("furlong/fortnight") }
        }
    }
}
