/// What the permission sheet asks the person: the types not answered yet.
///
/// A store shows the sheet only for types the person has not answered; types answered before are left out,
/// and when nothing is left the sheet is not shown at all (the policy is not consulted).
///
/// ```swift
/// let policy = AuthorizationPolicy.scripted { request in
///     request.share.contains(.bodyMass) ? .canceled : request.grantingAll
/// }
/// ```
public struct AuthorizationRequest: Hashable, Sendable {
    /// Types the app asks to share (write), after adding blood pressure's partner type.
    ///
    /// ```swift
    /// request.share   // [bloodPressureSystolic, bloodPressureDiastolic]
    /// ```
    public let share: Set<HealthObjectType>
    /// Types the app asks to read, after adding blood pressure's partner type.
    ///
    /// ```swift
    /// request.read   // [height]
    /// ```
    public let read: Set<HealthObjectType>

    /// Makes a request (stores make them; tests may too).
    ///
    /// ```swift
    /// let request = AuthorizationRequest(share: [.stepCount], read: [.height])
    /// ```
    ///
    /// - Parameters:
    ///   - share: Types to share.
    ///   - read: Types to read.
    public init(share: Set<HealthObjectType>, read: Set<HealthObjectType>) {
        self.share = share
        self.read = read
    }

    /// The answer that allows everything asked.
    ///
    /// ```swift
    /// let policy = AuthorizationPolicy.scripted { $0.grantingAll }
    /// ```
    public var grantingAll: AuthorizationResponse {
        .answered(share: share, read: read)
    }

    /// The answer that allows everything asked except the listed types.
    ///
    /// ```swift
    /// let answer = request.granting(exceptShare: [.bodyMass], exceptRead: [.heartRate])
    /// ```
    ///
    /// - Parameters:
    ///   - deniedShare: Types to refuse sharing.
    ///   - deniedRead: Types to refuse reading.
    /// - Returns: The answer.
    public func granting(
        exceptShare deniedShare: Set<HealthObjectType> = [], exceptRead deniedRead: Set<HealthObjectType> = []
    ) -> AuthorizationResponse {
        .answered(share: share.subtracting(deniedShare), read: read.subtracting(deniedRead))
    }
}

/// How the person answered the permission sheet.
///
/// ```swift
/// let answer: AuthorizationResponse = .answered(share: [.stepCount], read: [])   // everything else denied
/// ```
public enum AuthorizationResponse: Hashable, Sendable {
    /// The person tapped "Allow" with these switches on; every other type in the request is denied. Types
    /// outside the request are ignored. Blood pressure is one switch: systolic and diastolic are allowed
    /// only together.
    case answered(share: Set<HealthObjectType>, read: Set<HealthObjectType>)
    /// The person dismissed the sheet: nothing is recorded and the request fails with
    /// ``HealthStoreError/userCanceled``.
    case canceled
}

/// The person at the permission sheet, played by code: an in-memory store asks its policy whenever a
/// request contains types not answered yet.
///
/// ```swift
/// let everything = InMemoryHealthStore(configuration: app, policy: .grantAll)
/// let noWeight = InMemoryHealthStore(configuration: app, policy: .deny(share: [.bodyMass]))
/// let scripted = InMemoryHealthStore(configuration: app, policy: .scripted { request in
///     request.read.contains(.heartRate) ? .canceled : request.grantingAll
/// })
/// ```
///
/// - Note: The answer closure is `@Sendable`: stores call it from whichever thread requests authorization,
///   never while holding a lock, so it may call back into the store.
public struct AuthorizationPolicy: Sendable {
    private let answer: @Sendable (AuthorizationRequest) -> AuthorizationResponse

    /// A policy that answers each request with `answer`.
    ///
    /// ```swift
    /// let policy = AuthorizationPolicy { request in .answered(share: request.share, read: []) }
    /// ```
    ///
    /// - Parameter answer: Called once per sheet with the types still unanswered.
    public init(_ answer: @escaping @Sendable (AuthorizationRequest) -> AuthorizationResponse) {
        self.answer = answer
    }

    /// Answers a request (stores call this).
    ///
    /// ```swift
    /// AuthorizationPolicy.grantAll.respond(to: AuthorizationRequest(share: [.stepCount], read: []))
    /// // .answered(share: [stepCount], read: [])
    /// ```
    ///
    /// - Parameter request: The types still unanswered.
    /// - Returns: The person's answer.
    public func respond(to request: AuthorizationRequest) -> AuthorizationResponse {
        answer(request)
    }

    /// Allows everything asked.
    ///
    /// ```swift
    /// let store = InMemoryHealthStore(configuration: app, policy: .grantAll)
    /// ```
    public static let grantAll = AuthorizationPolicy { $0.grantingAll }

    /// Denies everything asked (the sheet is answered, so types become `sharingDenied`).
    ///
    /// ```swift
    /// let store = InMemoryHealthStore(configuration: app, policy: .denyAll)
    /// ```
    public static let denyAll = AuthorizationPolicy { _ in .answered(share: [], read: []) }

    /// Allows everything asked except the listed types.
    ///
    /// ```swift
    /// let policy = AuthorizationPolicy.deny(share: [.bodyMass], read: [.heartRate])
    /// ```
    ///
    /// - Parameters:
    ///   - share: Types the person refuses to let the app write.
    ///   - read: Types the person refuses to let the app read.
    /// - Returns: The policy.
    public static func deny(
        share: Set<HealthObjectType> = [], read: Set<HealthObjectType> = []
    ) -> AuthorizationPolicy {
        AuthorizationPolicy { $0.granting(exceptShare: share, exceptRead: read) }
    }

    /// Answers each request with a closure: the script of a test.
    ///
    /// ```swift
    /// let answers = LockedState([AuthorizationResponse.canceled])
    /// let policy = AuthorizationPolicy.scripted { request in
    ///     answers.withLock { $0.isEmpty ? request.grantingAll : $0.removeFirst() }
    /// }
    /// ```
    ///
    /// - Parameter answer: Called once per sheet with the types still unanswered.
    /// - Returns: The policy.
    public static func scripted(
        _ answer: @escaping @Sendable (AuthorizationRequest) -> AuthorizationResponse
    ) -> AuthorizationPolicy {
        AuthorizationPolicy(answer)
    }

    /// Dismisses every sheet: requests fail with ``HealthStoreError/userCanceled`` and nothing is recorded.
    ///
    /// ```swift
    /// let store = InMemoryHealthStore(configuration: app, policy: .userCancels)
    /// ```
    public static let userCancels = AuthorizationPolicy { _ in .canceled }
}
