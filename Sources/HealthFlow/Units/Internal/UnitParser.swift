/// A recursive-descent parser for HealthKit's unit-string grammar.
///
/// ```text
/// unit     := product ( '/' product )?          -- at most one '/', anywhere in the string
/// product  := term ( ('*' | '.' | '·') term )*
/// term     := primary ( '^' '-'? digits )?
/// primary  := '(' ')'                           -- the unitless unit
///           | '(' product ')'                   -- no '/' inside parentheses
///           | name ( '<' molar-mass '>' )?      -- molar mass only on a mole
/// ```
///
/// Nesting depth is bounded so that hostile input cannot exhaust the stack.
struct UnitParser {
    private let input: String
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 32

    init(_ input: String) {
        self.input = input
        self.scalars = Array(input.unicodeScalars)
    }

    mutating func parse() throws(UnitError) -> [UnitAtom: Int] {
        guard !scalars.isEmpty else { throw malformed("empty unit string") }
        if scalars.lazy.filter({ $0 == "/" }).count > 1 {
            throw malformed("more than one '/'")
        }
        var factors = try parseProduct()
        if peek == "/" {
            index += 1
            guard peek != nil else { throw malformed("missing denominator after '/'") }
            let denominator = try parseProduct()
            for (atom, power) in denominator {
                factors[atom] = Saturating.add(factors[atom] ?? 0, Saturating.negate(power))
            }
        }
        if let next = peek {
            throw next == ")" ? malformed("unbalanced ')'") : unexpected(next)
        }
        return factors
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "*" || scalar == "." || scalar == "·"
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar == "_" || scalar == "%"
    }

    private mutating func parseProduct() throws(UnitError) -> [UnitAtom: Int] {
        var factors = try parseTerm()
        while let next = peek, Self.isSeparator(next) {
            index += 1
            for (atom, power) in try parseTerm() {
                factors[atom] = Saturating.add(factors[atom] ?? 0, power)
            }
        }
        return factors
    }

    private mutating func parseTerm() throws(UnitError) -> [UnitAtom: Int] {
        let factors = try parsePrimary()
        guard peek == "^" else { return factors }
        index += 1
        let power = try parseExponent()
        return factors.mapValues { Saturating.multiply($0, power) }
    }

    private mutating func parseExponent() throws(UnitError) -> Int {
        var text = ""
        if peek == "-" {
            text.unicodeScalars.append("-")
            index += 1
        }
        while let next = peek, next.properties.numericType == .decimal, next.isASCII {
            text.unicodeScalars.append(next)
            index += 1
        }
        guard text != "", text != "-" else { throw malformed("'^' must be followed by an integer") }
        guard let power = Int(text) else { throw malformed("exponent \(text) is out of range") }
        return power
    }

    private mutating func parsePrimary() throws(UnitError) -> [UnitAtom: Int] {
        guard let next = peek else { throw malformed("expected a unit at the end of the string") }
        if next == "(" {
            index += 1
            if peek == ")" {
                index += 1
                return [:]
            }
            depth += 1
            guard depth <= Self.maximumDepth else { throw malformed("parentheses nested too deeply") }
            let factors = try parseProduct()
            depth -= 1
            guard let close = peek else { throw malformed("missing ')'") }
            guard close == ")" else {
                throw close == "/"
                    ? malformed("'/' inside parentheses; only a whole denominator may be parenthesised")
                    : unexpected(close)
            }
            index += 1
            return factors
        }
        guard Self.isNameScalar(next) else { throw unexpected(next) }
        var name = ""
        while let scalar = peek, Self.isNameScalar(scalar) {
            name.unicodeScalars.append(scalar)
            index += 1
        }
        var molarMass: Double?
        if peek == "<" {
            molarMass = try parseMolarMass()
        }
        return [try resolve(name, molarMass: molarMass): 1]
    }

    private mutating func parseMolarMass() throws(UnitError) -> Double {
        index += 1  // '<'
        var text = ""
        while let scalar = peek, scalar != ">" {
            text.unicodeScalars.append(scalar)
            index += 1
        }
        guard peek == ">" else { throw malformed("missing '>' after molar mass") }
        index += 1
        let allowed = text.unicodeScalars.allSatisfy { "0123456789.eE+-".unicodeScalars.contains($0) }
        guard allowed, let value = Double(text), value.isFinite, value > 0 else {
            throw malformed("molar mass '\(text)' is not a positive number")
        }
        return value
    }

    private func resolve(_ name: String, molarMass: Double?) throws(UnitError) -> UnitAtom {
        let atom: UnitAtom
        if let base = UnitBase.named(name) {
            atom = UnitAtom(base)
        } else if let prefixed = Self.prefixed(name) {
            atom = prefixed
        } else {
            throw .unknownUnit(name)
        }
        guard let molarMass else { return atom }
        guard atom.base == .mole else { throw malformed("a molar mass is only allowed on mol, not on \(name)") }
        return UnitAtom(.mole, prefix: atom.prefix, molarMass: molarMass)
    }

    private static func prefixed(_ name: String) -> UnitAtom? {
        for prefix in MetricPrefix.parseOrder where name.hasPrefix(prefix.symbol) {
            let rest = String(name.dropFirst(prefix.symbol.count))
            if let base = UnitBase.named(rest), base.acceptsPrefix {
                return UnitAtom(base, prefix: prefix)
            }
        }
        return nil
    }

    private func malformed(_ reason: String) -> UnitError {
        .malformed(input, reason: reason)
    }

    private func unexpected(_ scalar: Unicode.Scalar) -> UnitError {
        let shown = scalar.properties.isWhitespace ? "whitespace" : "'\(scalar)'"
        return malformed("unexpected \(shown) at offset \(index)")
    }
}
