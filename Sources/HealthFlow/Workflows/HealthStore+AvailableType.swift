import FlowKit

/// The seed's `availableType` workflow, in the three styles: ask for permission, then verify it.
///
/// A permission sheet that completed is not a grant — `requestAuthorization` succeeds whatever the person
/// answered — so the workflow checks ``HealthStore/authorizationStatus(for:)`` afterwards and reports
/// ``HealthStoreError/authorizationDenied(_:)`` or ``HealthStoreError/authorizationNotDetermined(_:)`` when
/// sharing is not allowed. (Read permission is never revealed, so only sharing can be verified.)
extension HealthStore {
    /// Callback style: requests sharing (and reading) `type`, then verifies the answer.
    ///
    /// - Parameters:
    ///   - type: The sample type to share and read.
    ///   - completion: `(true, nil)` when sharing is authorized; otherwise `false` and the error.
    public func availableType(
        _ type: HealthObjectType, completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        requestAuthorization(toShare: [type], read: [type]) { success, error in
            guard success, error == nil else {
                completion(false, error ?? HealthStoreError.unknown(reason: "the request did not complete"))
                return
            }
            if let refusal = sharingRefusal(for: type) {
                completion(false, refusal)
            } else {
                completion(true, nil)
            }
        }
    }

    /// Promise style: fulfills when sharing `type` is authorized.
    ///
    /// - Parameter type: The sample type to share and read.
    /// - Returns: A promise rejected with the request's error or the refusal.
    @available(
        *, noasync,
        message:
            "await the async twin instead (in top-level code state the result type: `let v: T = try await …` or `try await … as Void`); to keep a promise, write `Promise { try await … }`"
    )
    public func availableType(_ type: HealthObjectType) -> Promise<Void> {
        Promise { resolver in availableType(type, completion: resolver.resolve) }
    }

    /// Async style: returns when sharing `type` is authorized.
    ///
    /// - Parameter type: The sample type to share and read.
    /// - Throws: The request's error, or the refusal.
    public func availableType(_ type: HealthObjectType) async throws {
        try await firstly { availableType(type) }.value
    }

    /// The error saving `type` would meet now, or `nil` when sharing it is authorized.
    ///
    /// - Parameter type: The sample type.
    /// - Returns: ``HealthStoreError/authorizationDenied(_:)``, ``HealthStoreError/authorizationNotDetermined(_:)``
    ///   or `nil`.
    public func sharingRefusal(for type: HealthObjectType) -> HealthStoreError? {
        switch authorizationStatus(for: type) {
        case .sharingAuthorized: nil
        case .sharingDenied: .authorizationDenied(type)
        case .notDetermined: .authorizationNotDetermined(type)
        }
    }
}
