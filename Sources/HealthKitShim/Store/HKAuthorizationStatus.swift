import HealthFlow

/// Whether the app may share (save) a type; read access is never revealed. HealthFlow's own enum, whose cases
/// and raw values are HealthKit's.
public typealias HKAuthorizationStatus = AuthorizationStatus

/// Whether asking for authorization would show a sheet: HealthFlow's own enum, whose cases and raw values are
/// HealthKit's.
public typealias HKAuthorizationRequestStatus = AuthorizationRequestStatus

/// How often background delivery may wake the app.
public enum HKUpdateFrequency: Int, Sendable {
    /// As soon as data arrives.
    case immediate = 1
    /// At most hourly.
    case hourly = 2
    /// At most daily.
    case daily = 3
    /// At most weekly.
    case weekly = 4
}
