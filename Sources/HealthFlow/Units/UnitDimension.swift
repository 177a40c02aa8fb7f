/// The physical dimension of a unit: a product of base dimensions raised to integer powers.
///
/// Two units can be converted into each other exactly when their dimensions are equal. Volume is
/// `length³` (so `L` converts to `m^3`), energy is `mass·length²·time⁻²`, pressure is
/// `mass·length⁻¹·time⁻²` and frequency is `time⁻¹`.
///
/// HealthKit treats some quantities as dimensions of their own, and so do we: `count` (with `%` = 1/100
/// count), international units (`IU`), amount of substance (`mol` without a molar mass), conductance
/// (`S`), voltage (`V`) and the two decibel scales. A mole *with* a molar mass (`mol<180.15…>`) is a
/// mass unit, which is what makes `mmol<180.15588000005408>/L` convertible to `mg/dL`; a plain `mol`
/// does not convert to `mol<M>`. Because `count` is a dimension, `count/s` (heart rate) does not convert
/// to `Hz` (sampling frequency, time⁻¹), and `count` does not convert to the unitless `()`.
public struct UnitDimension: Hashable, Sendable, CustomStringConvertible {
    /// A base dimension; every dimension is a product of these.
    public enum Base: String, CaseIterable, Hashable, Sendable {
        /// Mass (`g`, `lb`, `mol<M>`).
        case mass
        /// Length (`m`, `ft`); volume is length³.
        case length
        /// Time (`s`, `min`, `hr`, `d`).
        case time
        /// Temperature (`K`, `degC`, `degF`).
        case temperature
        /// A count of things (`count`, `%`).
        case count
        /// International units of biological activity (`IU`).
        case internationalUnit
        /// Amount of substance without a molar mass (`mol`).
        case amountOfSubstance
        /// Electrical conductance (`S`).
        case conductance
        /// Electrical potential (`V`).
        case voltage
        /// A-weighted sound pressure level (`dBASPL`).
        case soundPressureLevel
        /// Hearing level (`dBHL`).
        case hearingLevel

        /// Its lane in ``UnitDimension/lanes``: its position in `allCases`.
        var lane: Int {
            switch self {
            case .mass: 0
            case .length: 1
            case .time: 2
            case .temperature: 3
            case .count: 4
            case .internationalUnit: 5
            case .amountOfSubstance: 6
            case .conductance: 7
            case .voltage: 8
            case .soundPressureLevel: 9
            case .hearingLevel: 10
            }
        }
    }

    /// Each base's exponent in the base's ``Base/lane``; the lanes past the last base are zero. A vector, not a
    /// dictionary, so that a unit's dimension is found and compared without allocating (the import checks one
    /// per sample).
    private var lanes: SIMD16<Int>

    /// The non-zero exponent of each base dimension. Empty for a dimensionless unit such as `()`.
    public var exponents: [Base: Int] {
        var exponents: [Base: Int] = [:]
        for base in Base.allCases where lanes[base.lane] != 0 {
            exponents[base] = lanes[base.lane]
        }
        return exponents
    }

    /// Makes a dimension from base exponents; zero exponents are dropped.
    public init(exponents: [Base: Int]) {
        lanes = .zero
        for (base, power) in exponents {
            lanes[base.lane] = power
        }
    }

    private init(lanes: SIMD16<Int>) {
        self.lanes = lanes
    }

    /// The dimension of a pure number: the unitless unit `()`.
    public static let dimensionless = UnitDimension(exponents: [:])
    /// Mass.
    public static let mass = UnitDimension(exponents: [.mass: 1])
    /// Length.
    public static let length = UnitDimension(exponents: [.length: 1])
    /// Volume: length³.
    public static let volume = UnitDimension(exponents: [.length: 3])
    /// Time.
    public static let time = UnitDimension(exponents: [.time: 1])
    /// Temperature.
    public static let temperature = UnitDimension(exponents: [.temperature: 1])
    /// Energy: mass·length²·time⁻².
    public static let energy = UnitDimension(exponents: [.mass: 1, .length: 2, .time: -2])
    /// Pressure: mass·length⁻¹·time⁻².
    public static let pressure = UnitDimension(exponents: [.mass: 1, .length: -1, .time: -2])
    /// Count.
    public static let count = UnitDimension(exponents: [.count: 1])
    /// International units.
    public static let internationalUnit = UnitDimension(exponents: [.internationalUnit: 1])
    /// Amount of substance (a mole without a molar mass).
    public static let amountOfSubstance = UnitDimension(exponents: [.amountOfSubstance: 1])
    /// Electrical conductance.
    public static let conductance = UnitDimension(exponents: [.conductance: 1])
    /// Frequency: time⁻¹.
    public static let frequency = UnitDimension(exponents: [.time: -1])
    /// Electrical potential.
    public static let voltage = UnitDimension(exponents: [.voltage: 1])
    /// A-weighted sound pressure level.
    public static let soundPressureLevel = UnitDimension(exponents: [.soundPressureLevel: 1])
    /// Hearing level.
    public static let hearingLevel = UnitDimension(exponents: [.hearingLevel: 1])

    private static let named: [(UnitDimension, String)] = [
        (.dimensionless, "dimensionless"), (.mass, "mass"), (.length, "length"), (.volume, "volume"),
        (.time, "time"), (.temperature, "temperature"), (.energy, "energy"), (.pressure, "pressure"),
        (.count, "count"), (.internationalUnit, "international unit"), (.amountOfSubstance, "amount of substance"),
        (.conductance, "conductance"), (.frequency, "frequency"), (.voltage, "voltage"),
        (.soundPressureLevel, "sound pressure level"), (.hearingLevel, "hearing level"),
    ]

    /// A readable name: a known dimension by name (`"mass"`, `"volume"`, `"pressure"`), any other as a
    /// product of base dimensions in declaration order (`"mass·length^-3"`).
    public var description: String {
        if let name = Self.named.first(where: { $0.0 == self })?.1 {
            return name
        }
        return Base.allCases.compactMap { base -> String? in
            let power = lanes[base.lane]
            guard power != 0 else { return nil }
            return power == 1 ? base.rawValue : "\(base.rawValue)^\(power)"
        }.joined(separator: "·")
    }

    /// The dimension of a product of atoms, each raised to its power: per base, the sum of the atoms' exponents
    /// times their powers, which saturate rather than overflow. The bases an atom lacks are skipped (most atoms
    /// have one).
    init(product factors: [UnitAtom: Int]) {
        var lanes = SIMD16<Int>.zero
        for (atom, power) in factors {
            let atomLanes = atom.dimension.lanes
            for lane in 0..<Self.baseCount where atomLanes[lane] != 0 {
                lanes[lane] = Saturating.add(lanes[lane], Saturating.multiply(atomLanes[lane], power))
            }
        }
        self.init(lanes: lanes)
    }

    /// The number of bases, the lanes in use.
    private static let baseCount = Base.allCases.count
}
