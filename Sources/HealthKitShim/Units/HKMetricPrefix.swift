import HealthFlow

/// A metric prefix for HKUnit's builders; raw values as in HealthKit (femto, added last, is 13).
public enum HKMetricPrefix: Int, Sendable {
    /// No prefix.
    case none = 0
    /// 10⁻¹².
    case pico = 1
    /// 10⁻⁹.
    case nano = 2
    /// 10⁻⁶ (`mc`).
    case micro = 3
    /// 10⁻³.
    case milli = 4
    /// 10⁻².
    case centi = 5
    /// 10⁻¹.
    case deci = 6
    /// 10¹.
    case deca = 7
    /// 10².
    case hecto = 8
    /// 10³.
    case kilo = 9
    /// 10⁶.
    case mega = 10
    /// 10⁹.
    case giga = 11
    /// 10¹².
    case tera = 12
    /// 10⁻¹⁵.
    case femto = 13

    var healthFlowPrefix: MetricPrefix {
        switch self {
        case .none: .none
        case .pico: .pico
        case .nano: .nano
        case .micro: .micro
        case .milli: .milli
        case .centi: .centi
        case .deci: .deci
        case .deca: .deca
        case .hecto: .hecto
        case .kilo: .kilo
        case .mega: .mega
        case .giga: .giga
        case .tera: .tera
        case .femto: .femto
        }
    }
}
