import Foundation

/// A unit of measure with HealthKit's unit-string grammar, dimension analysis and exact conversion;
/// the counterpart of `HKUnit` (named `HealthUnit` so it never clashes with Foundation's `Unit`).
///
/// A unit is a product of factors — a prefixed base such as `mL` or `kg`, raised to an integer power.
/// Make one from a string in HealthKit's grammar or from the builders that mirror `HKUnit`'s.
///
/// ## Grammar
/// Factors are joined by `*`, `.` or `·`; a factor may carry `^INT` (negative allowed) and may be a
/// parenthesised product. At most one `/` separates numerator and denominator, and multiplication binds
/// first: `kg/m.s^2` is `kg/(m.s^2)`. `mL/kg/min` is an error. `()` is the unitless unit. A mole may carry
/// a molar mass in grams per mole: `mmol<180.15588000005408>`. No whitespace is allowed.
///
/// ## Equality
/// Two units are equal when their normalised factor maps are equal: factors are combined (`m.m` is
/// `m^2`, `m/m` is `()`), `l` is `L`, and the order of factors does not matter, so `mL/(kg*min)` equals
/// `mL/min.kg`. Different spellings of equal *sizes* are different units: `kcal` and `Cal` convert
/// one to one but are not `==`, and neither are `g` and `1000 mg` — just as in HealthKit, which compares
/// printed unit strings.
public struct HealthUnit: Hashable, Sendable {
    /// The factors and what follows from them, computed once per distinct unit and interned: a copy of a unit (and
    /// of every quantity and sample holding one) retains nothing.
    private let storage: SharedStorage<Storage>

    /// The units made so far, one storage each (an export or a store uses a few dozen).
    static let interned = InternTable<[UnitAtom: Int], Storage>(limit: 4_096)

    /// Normalised factors: each atom with its non-zero exponent.
    var factors: [UnitAtom: Int] { storage.object.factors }

    /// Whether `other` shares this unit's storage (a copy of this unit, so equal); O(1), and `false` says nothing
    /// about equality.
    func isIdentical(to other: HealthUnit) -> Bool {
        storage.isIdentical(to: other.storage)
    }

    /// - Parameter table: Where the unit's storage is interned (a full one gives it storage of its own).
    init(factors: [UnitAtom: Int], internedIn table: InternTable<[UnitAtom: Int], Storage> = interned) {
        let normalised = factors.values.contains(0) ? factors.filter { $0.value != 0 } : factors
        storage = table.storage(for: normalised) { Storage(factors: normalised) }
    }

    init(_ base: UnitBase, prefix: MetricPrefix = .none) {
        self.init(factors: [UnitAtom(base, prefix: prefix): 1])
    }

    /// Parses a unit string in HealthKit's grammar.
    ///
    /// - Parameter string: A unit string such as `"kg"`, `"mL/(kg*min)"`, `"mmol<180.15588000005408>/L"`.
    /// - Throws: `UnitError.malformed` when the string breaks the grammar (two `/`, unbalanced
    ///   parentheses, a bad exponent or molar mass), `UnitError.unknownUnit` for an unknown unit name.
    public init(from string: String) throws(UnitError) {
        var parser = UnitParser(string)
        self.init(factors: try parser.parse())
    }

    /// Whether this is the unitless unit `()`, which has no factors.
    public var isUnitless: Bool { factors.isEmpty }

    /// The unit printed in HealthKit's style; parsing it gives back an equal unit.
    ///
    /// Factors with a positive exponent form the numerator, those with a negative exponent the
    /// denominator after a single `/`; factors are joined by `·` and carry `^n` when `n ≠ 1`
    /// (`mL/min·kg`, `m^2·kg/s^2`). A unit with only negative exponents prints without `/` (`s^-1`), and
    /// the unitless unit prints as `()`.
    ///
    /// Order within the numerator and within the denominator is deterministic: by kind — count and
    /// `%`, `IU`, energy, volume, length, time, mass (and moles), pressure, temperature, electrical
    /// units, frequency, decibels — then by symbol, then by molar mass. Hence `mL/min·kg` and
    /// `kcal/hr·kg`, as HealthKit prints them.
    public var unitString: String {
        if factors.isEmpty { return "()" }
        let sorted = factors.sorted { UnitAtom.printOrder($0.key, $1.key) }
        let numerator = sorted.filter { $0.value > 0 }
        let denominator = sorted.filter { $0.value < 0 }
        func render(_ atom: UnitAtom, _ power: Int) -> String {
            power == 1 ? atom.symbol : "\(atom.symbol)^\(power)"
        }
        if numerator.isEmpty {
            return denominator.map { render($0.key, $0.value) }.joined(separator: "·")
        }
        var text = numerator.map { render($0.key, $0.value) }.joined(separator: "·")
        if !denominator.isEmpty {
            text += "/" + denominator.map { render($0.key, Saturating.negate($0.value)) }.joined(separator: "·")
        }
        return text
    }

    /// The physical dimension of the unit; units convert into each other exactly when these are equal.
    public var dimension: UnitDimension { storage.object.dimension }

    /// Whether values in this unit can be converted into `other` (their dimensions match).
    public func isCompatible(with other: HealthUnit) -> Bool {
        isIdentical(to: other) || dimension == other.dimension
    }

    /// The product of two units: exponents of equal factors add.
    public func unitMultiplied(by other: HealthUnit) -> HealthUnit {
        var result = factors
        for (atom, power) in other.factors {
            result[atom] = Saturating.add(result[atom] ?? 0, power)
        }
        return HealthUnit(factors: result)
    }

    /// The quotient of two units: `self × other⁻¹`.
    public func unitDivided(by other: HealthUnit) -> HealthUnit {
        unitMultiplied(by: other.reciprocal())
    }

    /// The unit raised to an integer power; every exponent is multiplied by `power` (0 gives `()`).
    ///
    /// - Note: Exponents saturate at the bounds of `Int` rather than trap.
    public func unitRaised(toPower power: Int) -> HealthUnit {
        HealthUnit(factors: factors.mapValues { Saturating.multiply($0, power) })
    }

    /// The reciprocal unit: every exponent negated.
    public func reciprocal() -> HealthUnit {
        HealthUnit(factors: factors.mapValues { Saturating.negate($0) })
    }

    /// The scale of the whole unit against the coherent base of its dimension.
    var scale: UnitScale { storage.object.scale }

    /// Equal when the normalised factor maps are (see "Equality" above).
    public static func == (lhs: HealthUnit, rhs: HealthUnit) -> Bool {
        if lhs.isIdentical(to: rhs) { return true }
        // One interned storage per factor map: two different ones hold different maps.
        if lhs.storage.isInterned && rhs.storage.isInterned { return false }
        return lhs.factors == rhs.factors
    }

    /// Hashes the normalised factor map (through its hash, computed once).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.object.factorsHash)
    }

    /// A unit's factors and what follows from them, computed once.
    final class Storage: Sendable {
        let factors: [UnitAtom: Int]
        let dimension: UnitDimension
        let scale: UnitScale
        /// `factors.hashValue`: equal maps, equal hashes, in this process.
        let factorsHash: Int

        init(factors: [UnitAtom: Int]) {
            self.factors = factors
            dimension = UnitDimension(product: factors)
            scale = factors.reduce(UnitScale.one) { $0.multiplied(by: $1.key.scale.raised(to: $1.value)) }
            factorsHash = factors.hashValue
        }
    }
}

extension HealthUnit: CustomStringConvertible {
    /// The printed unit string, as `unitString`.
    public var description: String { unitString }
}

extension HealthUnit: Codable {
    /// Decodes a unit from its unit string.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the string is not a valid unit.
    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeSingleString { try HealthUnit(from: $0) }
    }

    /// Encodes the unit as its unit string (`"mL/min·kg"`).
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try encoder.encodeSingleString(unitString)
    }
}
