/// Whether the app may share (save) a type. Read access is never revealed.
public enum HKAuthorizationStatus: Int, Sendable {
    /// Never asked.
    case notDetermined = 0
    /// The person said no to sharing.
    case sharingDenied = 1
    /// The person allowed sharing.
    case sharingAuthorized = 2
}

/// Whether asking for authorization would show a sheet.
public enum HKAuthorizationRequestStatus: Int, Sendable {
    /// Cannot tell.
    case unknown = 0
    /// Some type was never asked about.
    case shouldRequest = 1
    /// Every type was asked about.
    case unnecessary = 2
}

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
