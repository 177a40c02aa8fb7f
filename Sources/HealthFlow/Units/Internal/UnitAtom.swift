import Foundation

/// One factor of a unit before its exponent: a prefix, a base, and (for a mole) an optional molar mass.
///
/// `mL` is `UnitAtom(prefix: .milli, base: .liter)`; `mmol<180.15588000005408>` is
/// `UnitAtom(prefix: .milli, base: .mole, molarMass: 180.15588000005408)`.
struct UnitAtom: Hashable, Sendable {
    var prefix: MetricPrefix
    var base: UnitBase
    /// Grams per mole; only ever set on `.mole`, and then finite and positive.
    var molarMass: Double?

    init(_ base: UnitBase, prefix: MetricPrefix = .none, molarMass: Double? = nil) {
        self.prefix = prefix
        self.base = base
        self.molarMass = molarMass
    }

    /// A mole with a molar mass is a mass (`mol<M>` = M g); without one it is an amount of substance.
    var dimension: UnitDimension {
        base == .mole && molarMass != nil ? .mass : base.dimension
    }

    var scale: UnitScale {
        var scale = base.scale
        if base == .mole, let molarMass {
            scale.numerator *= molarMass
        }
        scale.powerOfTen += prefix.powerOfTen
        return scale
    }

    /// The atom as written in a unit string: `mL`, `kcal`, `mmol<180.15588000005408>`.
    var symbol: String {
        var text = prefix.symbol + base.symbol
        if let molarMass {
            text += "<\(NumberFormatting.shortest(molarMass))>"
        }
        return text
    }

    /// The deterministic print order: kind rank, then symbol, then molar mass.
    static func printOrder(_ lhs: UnitAtom, _ rhs: UnitAtom) -> Bool {
        if lhs.base.printRank != rhs.base.printRank { return lhs.base.printRank < rhs.base.printRank }
        let (left, right) = (lhs.prefix.symbol + lhs.base.symbol, rhs.prefix.symbol + rhs.base.symbol)
        if left != right { return left < right }
        return (lhs.molarMass ?? 0) < (rhs.molarMass ?? 0)
    }
}

/// Number printing shared by units and quantities.
enum NumberFormatting {
    /// The shortest text that reads back as the same `Double`, without a trailing `.0` for integers
    /// below 10¹⁵: `172`, `1.72`, `180.15588000005408`.
    static func shortest(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), value.magnitude < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }
}
