import Foundation

/// A store of health data with HealthKit's rules — the counterpart of `HKHealthStore`, with the same
/// callback API, so code ported from HealthKit reads the same:
///
/// ```swift
/// store.requestAuthorization(toShare: [.stepCount], read: [.stepCount]) { success, error in
///     guard success else { return fail(error) }
///     store.save(.quantity(steps)) { saved, error in
///         guard saved else { return fail(error) }
///         store.execute(HealthSampleQuery(sampleType: .stepCount) { _, samples, _ in show(samples ?? []) })
///     }
/// }
/// ```
///
/// The same operations exist as promises (`HealthStore+Promise.swift`: `store.save(sample).then { … }`) and
/// as `async` functions (`HealthStore+Async.swift`: `try await store.save(sample)`), with the same names and
/// outcomes.
///
/// ## Rules every implementation keeps
/// - Completion and query handlers run on the store's documented callback executor, never on the caller's
///   stack while a store lock is held: calling the store again from inside a handler is safe.
/// - Failures are ``HealthStoreError`` values (delivered as `any Error` in callbacks); nothing crashes on
///   caller data, where HealthKit would raise an exception.
/// - Authorization: saving needs sharing authorized (``HealthStoreError/authorizationNotDetermined(_:)`` or
///   ``HealthStoreError/authorizationDenied(_:)`` otherwise). Read denial is never revealed: queries
///   return nothing for types the app may not read, except the app's own samples.
///
/// - Note: Stores are `Sendable`: every method may be called from any thread.
public protocol HealthStore: Sendable {
    /// Whether health data is available at all (HealthKit's `HKHealthStore.isHealthDataAvailable()`).
    /// When it is not, every operation fails with ``HealthStoreError/healthDataUnavailable``.
    var isHealthDataAvailable: Bool { get }

    /// Asks the person for permission to share (write) and read types, showing the sheet only for types not
    /// answered before.
    ///
    /// `success` means the request completed, not that anything was allowed: check
    /// ``authorizationStatus(for:)`` for sharing; read permission is never revealed. The request is validated
    /// first and fails with a ``HealthStoreError`` (code `invalidArgument`) when both sets are empty, when
    /// the share set holds a read-only type, when either set holds a correlation type, or when the app
    /// configuration lacks the usage description a set needs. Asking for one of systolic or diastolic blood
    /// pressure asks for both.
    ///
    /// - Parameters:
    ///   - typesToShare: Sample types to write.
    ///   - typesToRead: Types to read (sample types and characteristics).
    ///   - completion: `(true, nil)` once answered; `(false, error)` otherwise (``HealthStoreError/userCanceled``
    ///     when the sheet was dismissed).
    func requestAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void)

    /// The sharing status of `type` — sharing only; read permission is never revealed.
    ///
    /// - Parameter type: Any type.
    /// - Returns: The status; `.notDetermined` for types never requested (and for types that cannot be
    ///   shared).
    func authorizationStatus(for type: HealthObjectType) -> AuthorizationStatus

    /// Whether requesting these types would show the permission sheet.
    ///
    /// - Parameters:
    ///   - typesToShare: Sample types to write.
    ///   - typesToRead: Types to read.
    ///   - completion: The status, or `.unknown` and the validation error (the same rules as
    ///     ``requestAuthorization(toShare:read:completion:)``).
    func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HealthObjectType>, read typesToRead: Set<HealthObjectType>,
        completion: @escaping @Sendable (AuthorizationRequestStatus, (any Error)?) -> Void)

    /// Saves one sample (a correlation saves its members too).
    ///
    /// - Parameters:
    ///   - sample: The sample; its source must be the app's.
    ///   - completion: `(true, nil)` when saved; `(false, error)` otherwise.
    func save(_ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void)

    /// Saves samples all-or-nothing: if any is refused, none is saved.
    ///
    /// - Parameters:
    ///   - samples: The samples; an empty array succeeds without changing anything.
    ///   - completion: `(true, nil)` when all were saved; `(false, error)` naming the first refusal.
    func save(_ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void)

    /// Deletes one sample the app saved, leaving a tombstone for anchored queries. Deleting a correlation
    /// deletes its members.
    ///
    /// - Parameters:
    ///   - sample: The sample (matched by UUID).
    ///   - completion: `(true, nil)` when deleted; `(false, error)` otherwise.
    func delete(_ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void)

    /// Deletes samples all-or-nothing.
    ///
    /// - Parameters:
    ///   - samples: The samples (matched by UUID); an empty array succeeds without changing anything.
    ///   - completion: `(true, nil)` when all were deleted; `(false, error)` naming the first refusal.
    func delete(_ samples: [HealthSample], withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void)

    /// Runs a query; its handlers receive the results on the store's callback executor. A query object runs
    /// once: executing it again delivers ``HealthStoreError/queryAlreadyExecuted(query:)`` to its handler.
    func execute(_ query: HealthQuery)

    /// Stops a query: a long-running query reports nothing more, and a query whose results are not yet
    /// delivered never calls its handler. Stopping a query that is not running does nothing.
    func stop(_ query: HealthQuery)

    /// The person's date of birth as calendar components (year, month, day).
    ///
    /// - Throws: ``HealthStoreError/authorizationNotDetermined(_:)`` when reading it was never requested;
    ///   ``HealthStoreError/noData(_:)`` when it is not set or the app may not read it (indistinguishable).
    func dateOfBirthComponents() throws(HealthStoreError) -> DateComponents

    /// The person's biological sex.
    ///
    /// - Returns: The value; `.notSet` when not set or not readable (indistinguishable).
    /// - Throws: ``HealthStoreError/authorizationNotDetermined(_:)`` when reading it was never requested.
    func biologicalSex() throws(HealthStoreError) -> BiologicalSex

    /// The person's blood type.
    ///
    /// - Returns: The value; `.notSet` when not set or not readable.
    /// - Throws: ``HealthStoreError/authorizationNotDetermined(_:)`` when reading it was never requested.
    func bloodType() throws(HealthStoreError) -> BloodType

    /// The person's Fitzpatrick skin type.
    ///
    /// - Returns: The value; `.notSet` when not set or not readable.
    /// - Throws: ``HealthStoreError/authorizationNotDetermined(_:)`` when reading it was never requested.
    func fitzpatrickSkinType() throws(HealthStoreError) -> FitzpatrickSkinType

    /// Whether the person uses a wheelchair.
    ///
    /// - Returns: The value; `.notSet` when not set or not readable.
    /// - Throws: ``HealthStoreError/authorizationNotDetermined(_:)`` when reading it was never requested.
    func wheelchairUse() throws(HealthStoreError) -> WheelchairUse

    /// What the person's move ring counts.
    ///
    /// - Returns: The value; `.activeEnergy` (the default) when not readable.
    /// - Throws: ``HealthStoreError/authorizationNotDetermined(_:)`` when reading it was never requested.
    func activityMoveMode() throws(HealthStoreError) -> ActivityMoveMode
}

extension HealthStore {
    /// Saves `sample` as a batch of one (``save(_:withCompletion:)-([HealthSample],_)``): the default for a store
    /// whose single save follows the batch rules.
    public func save(
        _ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        save([sample], withCompletion: completion)
    }

    /// Deletes `sample` as a batch of one (``delete(_:withCompletion:)-([HealthSample],_)``): the default for a
    /// store whose single delete follows the batch rules.
    public func delete(
        _ sample: HealthSample, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        delete([sample], withCompletion: completion)
    }
}
