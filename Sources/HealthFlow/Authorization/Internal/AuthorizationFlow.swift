/// Answering a permission request, for the stores that answer it themselves (rather than ask HealthKit):
/// validate it, find the types not answered yet, and let the policy answer those.
struct AuthorizationFlow {
    let configuration: HealthAppConfiguration
    let policy: AuthorizationPolicy
    let isHealthDataAvailable: Bool

    /// What a request comes to.
    enum Outcome {
        /// Report this at once: `nil` for success (nothing left to ask), or the refusal.
        case finished((any Error)?)
        /// Record the policy's answer to the unanswered part of the request, then report success.
        case record(share: Set<HealthObjectType>, read: Set<HealthObjectType>, request: AuthorizationRequest)
    }

    /// The outcome of asking for `share` and `read`; `unanswered` narrows a request to the types never answered.
    func request(
        share: Set<HealthObjectType>, read: Set<HealthObjectType>,
        unanswered: (AuthorizationRequest) -> AuthorizationRequest
    ) -> Outcome {
        let open: AuthorizationRequest
        do {
            open = unanswered(try validated(share: share, read: read))
        } catch {
            return .finished(error)
        }
        guard !open.share.isEmpty || !open.read.isEmpty else { return .finished(nil) }
        switch policy.respond(to: open) {
        case .canceled: return .finished(HealthStoreError.userCanceled)
        case .answered(let share, let read): return .record(share: share, read: read, request: open)
        }
    }

    /// Whether asking for `share` and `read` would show the sheet, or `.unknown` and the validation error.
    func requestStatus(
        share: Set<HealthObjectType>, read: Set<HealthObjectType>,
        unanswered: (AuthorizationRequest) -> AuthorizationRequest
    ) -> (AuthorizationRequestStatus, (any Error)?) {
        do {
            let open = unanswered(try validated(share: share, read: read))
            return (open.share.isEmpty && open.read.isEmpty ? .unnecessary : .shouldRequest, nil)
        } catch {
            return (.unknown, error)
        }
    }

    private func validated(
        share: Set<HealthObjectType>, read: Set<HealthObjectType>
    ) throws(HealthStoreError) -> AuthorizationRequest {
        guard isHealthDataAvailable else { throw .healthDataUnavailable }
        return try AuthorizationRules.validate(share: share, read: read, configuration: configuration)
    }
}
