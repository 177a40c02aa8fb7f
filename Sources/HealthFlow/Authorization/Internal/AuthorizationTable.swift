/// HealthKit's authorization rules, checked before any sheet is shown.
package enum AuthorizationRules {
    /// Blood pressure's two halves: asking for one asks for both.
    private static let partners: [HealthObjectType: HealthObjectType] = [
        .bloodPressureSystolic: .bloodPressureDiastolic,
        .bloodPressureDiastolic: .bloodPressureSystolic,
    ]

    /// `types` plus the partner of any blood-pressure half.
    static func addingPartners(_ types: Set<HealthObjectType>) -> Set<HealthObjectType> {
        types.union(types.compactMap { partners[$0] })
    }

    /// Validates a request in a fixed order (so the same input always reports the same error) and returns it
    /// with partner types added.
    package static func validate(
        share: Set<HealthObjectType>, read: Set<HealthObjectType>, configuration: HealthAppConfiguration
    ) throws(HealthStoreError) -> AuthorizationRequest {
        guard !share.isEmpty || !read.isEmpty else { throw .emptyAuthorizationRequest }
        for type in share.sorted(by: { $0.identifier < $1.identifier }) {
            if type.kind == .correlation { throw .correlationTypeNotAuthorizable(type) }
            if !type.isShareable { throw .typeNotShareable(type) }
        }
        for type in read.sorted(by: { $0.identifier < $1.identifier }) where type.kind == .correlation {
            throw .correlationTypeNotAuthorizable(type)
        }
        if !share.isEmpty, configuration.usageDescription(for: .update) == nil {
            throw .missingUsageDescription(.update)
        }
        if !read.isEmpty, configuration.usageDescription(for: .share) == nil {
            throw .missingUsageDescription(.share)
        }
        return AuthorizationRequest(share: addingPartners(share), read: addingPartners(read))
    }
}

/// The answers recorded so far: per type, `true` (allowed), `false` (denied) or absent (never asked).
struct AuthorizationTable {
    /// Sharing answers per type (a durable store snapshots these).
    private(set) var share: [HealthObjectType: Bool] = [:]
    /// Reading answers per type.
    private(set) var read: [HealthObjectType: Bool] = [:]

    /// A table with no answers.
    init() {}

    /// A table with these answers (restored from a snapshot).
    init(share: [HealthObjectType: Bool], read: [HealthObjectType: Bool]) {
        self.share = share
        self.read = read
    }

    /// A table with the answers a backend kept (``HealthAuthorizationStoreBackend``).
    init(_ answers: HealthAuthorizationAnswers) {
        self.init(share: answers.share, read: answers.read)
    }

    /// The answers, as a backend keeps them.
    var answers: HealthAuthorizationAnswers { HealthAuthorizationAnswers(share: share, read: read) }

    /// The sharing status of `type`.
    func status(for type: HealthObjectType) -> AuthorizationStatus {
        switch share[type] {
        case nil: .notDetermined
        case false?: .sharingDenied
        case true?: .sharingAuthorized
        }
    }

    /// Whether the person allowed reading `type`.
    func mayRead(_ type: HealthObjectType) -> Bool {
        read[type] == true
    }

    /// Whether queries show `sample` to the app `appBundleIdentifier`: its own samples always; others only when
    /// the person allowed reading the type (for a correlation, every member's type). Read denial is hidden by
    /// this alone: what the app may not read is simply not there.
    func isVisible(_ sample: HealthSample, toApp appBundleIdentifier: String) -> Bool {
        if sample.source.bundleIdentifier == appBundleIdentifier { return true }
        if case .correlation(let correlation) = sample {
            return correlation.objects.allSatisfy { mayRead($0.type) }
        }
        return mayRead(sample.type)
    }

    /// Whether reading `type` was ever answered.
    func readIsDetermined(_ type: HealthObjectType) -> Bool {
        read[type] != nil
    }

    /// The types of `request` not answered yet.
    func unanswered(_ request: AuthorizationRequest) -> AuthorizationRequest {
        AuthorizationRequest(
            share: request.share.filter { share[$0] == nil }, read: request.read.filter { read[$0] == nil })
    }

    /// Records an answer to `request` for the types still unanswered (a concurrent request may have
    /// answered some meanwhile; the first answer wins). Blood pressure is one switch.
    mutating func record(
        share granted: Set<HealthObjectType>, read grantedRead: Set<HealthObjectType>,
        for request: AuthorizationRequest
    ) {
        let granted = Self.pairing(granted)
        let grantedRead = Self.pairing(grantedRead)
        for type in request.share where share[type] == nil {
            share[type] = granted.contains(type)
        }
        for type in request.read where read[type] == nil {
            read[type] = grantedRead.contains(type)
        }
    }

    /// The error saving or deleting `type` meets, if any.
    func shareError(for type: HealthObjectType) -> HealthStoreError? {
        switch share[type] {
        case nil: .authorizationNotDetermined(type)
        case false?: .authorizationDenied(type)
        case true?: nil
        }
    }

    /// Removes a lone blood-pressure half: the sheet has one switch for both.
    private static func pairing(_ types: Set<HealthObjectType>) -> Set<HealthObjectType> {
        let halves: Set<HealthObjectType> = [.bloodPressureSystolic, .bloodPressureDiastolic]
        return types.isSuperset(of: halves) ? types : types.subtracting(halves)
    }
}
