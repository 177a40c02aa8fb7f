import FlowKit
import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

extension HealthKitStore: HealthQueryRunner {
    /// Runs `job` at once: HealthKit already calls its handlers on a queue of its own.
    public func scheduleCallback(_ job: @escaping @Sendable () -> Void) {
        job()
    }

    /// Starts `healthKitQuery` for `execution`; stopping the HealthFlow query stops it.
    func start<Results>(_ healthKitQuery: HKQuery, for execution: QueryExecution<Results>) {
        execution.onStop { [healthStore] in healthStore.stop(healthKitQuery) }
        healthStore.execute(healthKitQuery)
    }

    /// HealthKit's sample type for the execution's query, or `nil` after failing it (a type HealthKit does not
    /// query).
    func healthKitSampleType<Results>(for execution: QueryExecution<Results>) -> HKSampleType? {
        let query = execution.query
        guard let type = BridgeTypes.healthKitSample(query.objectType) else {
            execution.fail(HealthStoreError.unsupportedQueryType(query.objectType, query: query.description))
            return nil
        }
        return type
    }

    /// HealthFlow samples of HealthKit objects, remembering each HealthKit UUID's HealthFlow UUID; what cannot
    /// be carried over is recorded in ``conversionSkips``.
    func converted(_ objects: [HKSample]?) -> [HealthSample]? {
        guard let objects else { return nil }
        var skips: [HealthKitConversionSkip] = []
        let samples = objects.compactMap { BridgeSamples.healthFlow($0, skips: &skips) }
        state.withLock { state in
            for object in objects { state.uuids[object.uuid] = BridgeSamples.uuid(of: object) }
            state.record(skips)
        }
        return samples
    }

    /// Runs the query as an `HKSampleQuery`; a predicate HealthKit cannot express is applied to its results.
    public func run(_ query: HealthSampleQuery, in execution: QueryExecution<[HealthSample]>) {
        guard let sampleType = healthKitSampleType(for: execution) else { return }
        let type = query.objectType
        let pushed = query.predicate.flatMap(BridgePredicates.healthKit)
        let exact = query.predicate == nil || pushed != nil
        let sort = query.sortDescriptors.map {
            NSSortDescriptor(
                key: $0.key == .endDate ? HKSampleSortIdentifierEndDate : HKSampleSortIdentifierStartDate,
                ascending: $0.ascending)
        }
        let healthKitQuery = HKSampleQuery(
            sampleType: sampleType, predicate: pushed, limit: exact ? query.limit : HKObjectQueryNoLimit,
            sortDescriptors: sort.isEmpty ? nil : sort
        ) { [self] _, objects, error in
            guard var samples = converted(objects) else {
                return execution.deliver(.failure(BridgeErrors.healthFlow(error ?? HKError(.errorNoData), type: type)))
            }
            if !exact, let predicate = query.predicate {
                samples = samples.filter(predicate.evaluate)
                if query.limit > 0 { samples = Array(samples.prefix(query.limit)) }
            }
            execution.deliver(.success(samples))
        }
        start(healthKitQuery, for: execution)
    }

    /// Finds the HealthKit electrocardiogram behind the ECG (an `HKSampleQuery` by UUID), then streams its
    /// lead I voltages with an `HKElectrocardiogramQuery`; an ECG HealthKit does not hold (or hides) has none.
    public func run(
        _ query: HealthElectrocardiogramQuery, in execution: QueryExecution<[ElectrocardiogramVoltageMeasurement]>
    ) {
        let uuid = query.electrocardiogram.uuid
        let healthKitUUID = state.withLock { state in state.uuids.first { $0.value == uuid }?.key } ?? uuid
        let find = HKSampleQuery(
            sampleType: HKObjectType.electrocardiogramType(),
            predicate: HKQuery.predicateForObject(with: healthKitUUID),
            limit: 1, sortDescriptors: nil
        ) { [self] _, objects, error in
            guard let objects else {
                return execution.deliver(
                    .failure(BridgeErrors.healthFlow(error ?? HKError(.errorNoData), type: .electrocardiogram)))
            }
            guard let electrocardiogram = objects.first as? HKElectrocardiogram else {
                return execution.deliver(.success([]))
            }
            let gathered = LockedState<[ElectrocardiogramVoltageMeasurement]>([])
            let voltages = HKElectrocardiogramQuery(electrocardiogram) { _, result in
                switch result {
                case .measurement(let measurement):
                    guard let quantity = measurement.quantity(for: .appleWatchSimilarToLeadI) else { return }
                    let reading = ElectrocardiogramVoltageMeasurement(
                        timeSinceSampleStart: measurement.timeSinceSampleStart,
                        microvolts: quantity.doubleValue(for: .voltUnit(with: .micro)))
                    gathered.withLock { $0.append(reading) }
                case .done:
                    execution.deliver(.success(gathered.withLock { $0 }))
                case .error(let error):
                    execution.deliver(.failure(BridgeErrors.healthFlow(error, type: .electrocardiogram)))
                }
            }
            start(voltages, for: execution)
        }
        start(find, for: execution)
    }

    /// Runs the query as an `HKAnchoredObjectQuery`, translating anchors both ways.
    public func run(_ query: HealthAnchoredObjectQuery, in execution: QueryExecution<HealthAnchoredChanges>) {
        guard let sampleType = healthKitSampleType(for: execution) else { return }
        let pushed = query.predicate.flatMap(BridgePredicates.healthKit)
        let filter = pushed == nil ? query.predicate : nil
        let anchor: HKQueryAnchor?
        do throws(HealthStoreError) {
            anchor = try state.withLock { state throws(HealthStoreError) in try state.anchors.healthKit(query.anchor) }
        } catch {
            return execution.fail(error)
        }
        let healthKitQuery = HKAnchoredObjectQuery(
            type: sampleType, predicate: pushed, anchor: anchor, limit: query.limit
        ) { [self] _, objects, deleted, next, error in
            execution.deliver(changes(query, objects, deleted, next, error, filter: filter))
        }
        if execution.keepsRunning {
            healthKitQuery.updateHandler = { [self] _, objects, deleted, next, error in
                execution.deliverUpdate(changes(query, objects, deleted, next, error, filter: filter))
            }
        }
        start(healthKitQuery, for: execution)
    }

    private func changes(
        _ query: HealthAnchoredObjectQuery, _ objects: [HKSample]?, _ deleted: [HKDeletedObject]?,
        _ next: HKQueryAnchor?, _ error: (any Error)?, filter: SamplePredicate?
    ) -> Result<HealthAnchoredChanges, any Error> {
        guard var samples = converted(objects), let next else {
            let failure =
                error.map { BridgeErrors.healthFlow($0, type: query.objectType) }
                ?? .unknown(reason: "HealthKit returned no anchor")
            return .failure(failure)
        }
        if let filter { samples = samples.filter(filter.evaluate) }
        let (tombstones, anchor) = state.withLock { state in
            var skips: [HealthKitConversionSkip] = []
            let tombstones = (deleted ?? []).map { object in
                HealthDeletedObject(
                    uuid: state.uuids[object.uuid] ?? object.uuid,
                    metadata: BridgeMetadata.healthFlow(object.metadata, of: object.uuid, skips: &skips))
            }
            state.record(skips)
            return (tombstones, state.anchors.healthFlow(next))
        }
        return .success(HealthAnchoredChanges(samples: samples, deletedObjects: tombstones, newAnchor: anchor))
    }

    /// Runs the query as an `HKObserverQuery`. HealthFlow's completion handler calls HealthKit's: an app that
    /// acknowledges an update through HealthFlow acknowledges the background delivery too.
    public func run(
        _ query: HealthObserverQuery, in execution: QueryExecution<HealthObserverQuery.CompletionHandler>
    ) {
        guard let sampleType = healthKitSampleType(for: execution) else { return }
        let type = query.objectType
        let healthKitQuery = HKObserverQuery(
            sampleType: sampleType, predicate: query.predicate.flatMap(BridgePredicates.healthKit)
        ) { _, completionHandler, error in
            guard execution.isRunning else { return completionHandler() }
            if let error {
                // An error carries nothing to fetch: HealthKit's update is acknowledged at once.
                completionHandler()
                execution.deliverUpdate(.failure(BridgeErrors.healthFlow(error, type: type)))
            } else {
                execution.deliverUpdate(.success(completionHandler))
            }
        }
        start(healthKitQuery, for: execution)
    }
}
