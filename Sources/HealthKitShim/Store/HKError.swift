import Foundation
import HealthFlow

/// The error domain of HealthKit's errors.
public let HKErrorDomain = "com.apple.healthkit"

/// A HealthKit error: a code in `HKErrorDomain` and a message.
public struct HKError: Error, Hashable, Sendable, CustomNSError, LocalizedError {
    /// HealthKit's error codes (`HKErrorCode`).
    public enum Code: Int, Hashable, Sendable, CaseIterable {
        /// Unknown error.
        case errorUnknown = 0
        /// HealthKit is not available on this device.
        case errorHealthDataUnavailable = 1
        /// HealthKit is restricted (e.g. by a profile).
        case errorHealthDataRestricted = 2
        /// An invalid argument.
        case errorInvalidArgument = 3
        /// The person denied sharing.
        case errorAuthorizationDenied = 4
        /// Authorization was never requested.
        case errorAuthorizationNotDetermined = 5
        /// The database is locked (device locked).
        case errorDatabaseInaccessible = 6
        /// The person cancelled the sheet.
        case errorUserCanceled = 7
        /// Another app started a workout session.
        case errorAnotherWorkoutSessionStarted = 8
        /// The person ended the workout session.
        case errorUserExitedWorkoutSession = 9
        /// A required authorization was denied.
        case errorRequiredAuthorizationDenied = 10
        /// No data.
        case errorNoData = 11
        /// The workout activity is not allowed.
        case errorWorkoutActivityNotAllowed = 12
        /// The request was too large.
        case errorDataSizeExceeded = 13
        /// Background workout sessions are not allowed.
        case errorBackgroundWorkoutSessionNotAllowed = 14
        /// Not permitted in guest user mode.
        case errorNotPermissibleForGuestUserMode = 15
    }

    /// The error's code.
    public let code: Code

    let message: String

    /// An error with a code and, optionally, a message under `NSLocalizedDescriptionKey` (as Apple's
    /// `HKError(_:userInfo:)`).
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.init(code, message: userInfo[NSLocalizedDescriptionKey] as? String ?? "")
    }

    init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `HKErrorDomain`.
    public static var errorDomain: String { HKErrorDomain }

    /// The code's raw value.
    public var errorCode: Int { code.rawValue }

    /// The message, under `NSLocalizedDescriptionKey`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }

    /// The message.
    public var errorDescription: String? { message }

    /// HealthKit's error for one of HealthFlow's store errors (the shim's backend speaks HealthFlow).
    init(_ error: any Error) {
        if let error = error as? HealthStoreError {
            self.init(Code(rawValue: error.code.rawValue) ?? .errorUnknown, message: error.description)
        } else {
            self.init(.errorUnknown, message: String(describing: error))
        }
    }
}
