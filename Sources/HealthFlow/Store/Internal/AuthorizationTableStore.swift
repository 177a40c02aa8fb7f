/// A store that answers permission requests itself, keeping the answers in an ``AuthorizationTable`` behind its
/// lock: the request, status and characteristic rules over that table, written once for ``StoreEngine`` and
/// ``BackedHealthStore``, which differ only in how they record an answer.
protocol AuthorizationTableStore: AnyObject {
    var configuration: HealthAppConfiguration { get }
    var policy: AuthorizationPolicy { get }
    var characteristics: HealthCharacteristics { get }
    var isHealthDataAvailable: Bool { get }

    /// Runs `body` with the table under the store's lock and a function that queues a callback behind those the
    /// store's changes queued, then delivers them.
    func withAuthorizationTable<Result: Sendable>(
        _ body: (AuthorizationTable, (@escaping CallbackOutbox.Job) -> Void) -> Result
    ) -> Result

    /// Records the person's answer to `request` and reports to `completion` (a durable store journals the answer
    /// first, and reports its failure).
    func recordAnswer(
        share: Set<HealthObjectType>, read: Set<HealthObjectType>, request: AuthorizationRequest,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void)
}

extension AuthorizationTableStore {
    private var authorizationFlow: AuthorizationFlow {
        AuthorizationFlow(configuration: configuration, policy: policy, isHealthDataAvailable: isHealthDataAvailable)
    }

    /// Validates the request and asks ``policy`` about the types not answered yet (on the calling thread, without
    /// holding the lock), then records its answer; see ``HealthStore/requestAuthorization(toShare:read:completion:)``.
    func askForAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let outcome = authorizationFlow.request(share: typesToShare, read: typesToRead) { request in
            withAuthorizationTable { table, _ in table.unanswered(request) }
        }
        switch outcome {
        case .finished(let error):
            withAuthorizationTable { _, enqueue in enqueue { completion(error == nil, error) } }
        case .record(let share, let read, let request):
            recordAnswer(share: share, read: read, request: request, completion: completion)
        }
    }

    /// The sharing status of `type` (read status is never revealed).
    func sharingStatus(for type: HealthObjectType) -> AuthorizationStatus {
        withAuthorizationTable { table, _ in table.status(for: type) }
    }

    /// Whether requesting these types would show the permission sheet, reported in order with the store's other
    /// callbacks.
    func requestStatus(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (AuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        withAuthorizationTable { table, enqueue in
            let (status, error) = authorizationFlow.requestStatus(
                share: typesToShare, read: typesToRead, unanswered: table.unanswered)
            enqueue { completion(status, error) }
        }
    }

    /// The person's characteristics as the app may read characteristic `type`: all of them when allowed, none
    /// set when not (so an unreadable one looks unset, as HealthKit shows it).
    /// - Throws: ``HealthStoreError/healthDataUnavailable``, or ``HealthStoreError/authorizationNotDetermined(_:)``
    ///   when reading `type` was never requested.
    func characteristics(readableAs type: HealthObjectType) throws(HealthStoreError) -> HealthCharacteristics {
        guard isHealthDataAvailable else { throw .healthDataUnavailable }
        let (determined, readable) = withAuthorizationTable { table, _ in
            (table.readIsDetermined(type), table.mayRead(type))
        }
        guard determined else { throw .authorizationNotDetermined(type) }
        return readable ? characteristics : HealthCharacteristics()
    }
}
