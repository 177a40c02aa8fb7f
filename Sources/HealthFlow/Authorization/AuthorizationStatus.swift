/// Whether the app may share (write) a type — HealthKit's `HKAuthorizationStatus`.
///
/// It reflects sharing only. Whether the app may *read* a type is never revealed: a query over a type the
/// person did not allow simply returns no data (except the app's own samples), exactly as if none existed.
public enum AuthorizationStatus: Int, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The app never asked to share the type (or the person dismissed the sheet).
    case notDetermined = 0
    /// The person did not allow sharing the type.
    case sharingDenied = 1
    /// The person allowed sharing the type.
    case sharingAuthorized = 2

    /// The case name.
    public var description: String {
        switch self {
        case .notDetermined: "notDetermined"
        case .sharingDenied: "sharingDenied"
        case .sharingAuthorized: "sharingAuthorized"
        }
    }
}

/// Whether asking for a set of types would show the permission sheet — HealthKit's
/// `HKAuthorizationRequestStatus`.
public enum AuthorizationRequestStatus: Int, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The store could not tell (the request is invalid or health data is unavailable); see the error.
    case unknown = 0
    /// At least one type has not been answered yet: requesting would show the sheet.
    case shouldRequest = 1
    /// Every type has been answered already: requesting would not show the sheet.
    case unnecessary = 2

    /// The case name.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .shouldRequest: "shouldRequest"
        case .unnecessary: "unnecessary"
        }
    }
}
