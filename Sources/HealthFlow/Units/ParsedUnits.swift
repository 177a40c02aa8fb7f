/// Units parsed once per spelling, for readers that meet the same few unit strings on every record (a store's
/// files, an export). O(1) per repeat after the first parse.
package struct ParsedUnits {
    private var units: [String: HealthUnit] = [:]

    package init() {}

    /// The unit `text` spells, parsed the first time it is met.
    package mutating func unit(_ text: String) throws(UnitError) -> HealthUnit {
        if let known = units[text] { return known }
        let unit = try HealthUnit(from: text)
        units[text] = unit
        return unit
    }
}
