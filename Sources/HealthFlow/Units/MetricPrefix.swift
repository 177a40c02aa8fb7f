/// A metric (SI) prefix that scales a base unit by an exact power of ten, mirroring `HKMetricPrefix`.
///
/// Prefixes apply to the SI bases `g`, `m`, `L`, `Pa`, `s`, `J`, `K`, `S`, `Hz`, `V` and `mol`.
/// Micro is written `mc` (as in `mcg`), never `u` or `µ`, exactly as HealthKit spells it.
///
/// - Note: `.none` mirrors HealthKit's `HKMetricPrefixNone`; spell it `MetricPrefix.none` wherever an
///   optional is involved so it cannot be confused with `Optional.none`.
public enum MetricPrefix: Int, CaseIterable, Hashable, Sendable, Codable {
    /// No prefix: the base unit itself (`g`).
    case none = 0
    /// 10⁻¹⁵, written `f`.
    case femto
    /// 10⁻¹², written `p`.
    case pico
    /// 10⁻⁹, written `n`.
    case nano
    /// 10⁻⁶, written `mc` (`mcg` is a microgram).
    case micro
    /// 10⁻³, written `m`.
    case milli
    /// 10⁻², written `c`.
    case centi
    /// 10⁻¹, written `d` (`dL` is a deciliter).
    case deci
    /// 10¹, written `da`.
    case deca
    /// 10², written `h`.
    case hecto
    /// 10³, written `k`.
    case kilo
    /// 10⁶, written `M`.
    case mega
    /// 10⁹, written `G`.
    case giga
    /// 10¹², written `T`.
    case tera

    /// The prefix as written in a unit string: `""`, `"f"`, `"p"`, `"n"`, `"mc"`, `"m"`, `"c"`, `"d"`,
    /// `"da"`, `"h"`, `"k"`, `"M"`, `"G"` or `"T"`.
    public var symbol: String {
        switch self {
        case .none: ""
        case .femto: "f"
        case .pico: "p"
        case .nano: "n"
        case .micro: "mc"
        case .milli: "m"
        case .centi: "c"
        case .deci: "d"
        case .deca: "da"
        case .hecto: "h"
        case .kilo: "k"
        case .mega: "M"
        case .giga: "G"
        case .tera: "T"
        }
    }

    /// The exact decimal exponent of the prefix: the prefix multiplies by 10 to this power.
    public var powerOfTen: Int {
        switch self {
        case .none: 0
        case .femto: -15
        case .pico: -12
        case .nano: -9
        case .micro: -6
        case .milli: -3
        case .centi: -2
        case .deci: -1
        case .deca: 1
        case .hecto: 2
        case .kilo: 3
        case .mega: 6
        case .giga: 9
        case .tera: 12
        }
    }

    /// Prefixes tried by the parser, longest symbol first so that `da` wins over `d` and `mc` over `m`.
    static let parseOrder: [MetricPrefix] =
        allCases
        .filter { $0 != .none }
        .sorted { $0.symbol.count > $1.symbol.count }
}
