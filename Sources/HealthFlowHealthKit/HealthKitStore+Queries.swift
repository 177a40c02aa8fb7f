import Foundation
import HealthFlow

#if canImport(HealthKit)
    import HealthKit
#else
    import HealthKitShim
#endif

extension HealthKitStore {
    /// Runs a HealthFlow query as the matching HealthKit query (sample, anchored, observer, statistics,
    /// statistics collection, activity summary). A query runs once: running it again reports
    /// `queryAlreadyExecuted` without calling HealthKit (where HealthKit would raise).
    ///
    /// ```swift
    /// store.execute(HealthSampleQuery(sampleType: .height) { _, samples, _ in })
    /// ```
    public func execute(_ query: HealthQuery) {
        switch query {
        case let query as HealthSampleQuery: run(query)
        case let query as HealthAnchoredObjectQuery: run(query)
        case let query as HealthObserverQuery: run(query)
        case let query as HealthStatisticsQuery: run(query)
        case let query as HealthStatisticsCollectionQuery: run(query)
        case let query as HealthActivitySummaryQuery: run(query)
        default: break  // HealthQuery is not open: these six are its only subclasses.
        }
    }

    /// Stops a running query and the HealthKit query behind it.
    ///
    /// ```swift
    /// store.stop(observer)
    /// ```
    public func stop(_ query: HealthQuery) {
        guard query.markStopped() else { return }
        if let running = state.withLock({ $0.running.removeValue(forKey: ObjectIdentifier(query)) }) {
            healthStore.stop(running)
        }
    }

    func start(_ healthKitQuery: HKQuery, for query: HealthQuery) {
        state.withLock { $0.running[ObjectIdentifier(query)] = healthKitQuery }
        healthStore.execute(healthKitQuery)
    }

    func finished(_ query: HealthQuery) -> Bool {
        state.withLock { _ = $0.running.removeValue(forKey: ObjectIdentifier(query)) }
        return query.finish()
    }

    /// The error that stops a sample-type query before HealthKit is asked, if any.
    func queryError(_ query: HealthQuery, limit: Int) -> HealthStoreError? {
        if !isHealthDataAvailable { return .healthDataUnavailable }
        if !query.objectType.isSampleType || BridgeTypes.healthKitSample(query.objectType) == nil {
            return .unsupportedQueryType(query.objectType, query: query.name)
        }
        if limit < 0 { return .invalidLimit(limit) }
        return nil
    }

    /// HealthFlow samples of HealthKit objects, remembering each HealthKit UUID's HealthFlow UUID.
    func converted(_ objects: [HKSample]?) -> [HealthSample]? {
        guard let objects else { return nil }
        let samples = objects.compactMap { try? BridgeSamples.healthFlow($0) }
        state.withLock { state in
            for object in objects { state.uuids[object.uuid] = BridgeSamples.uuid(of: object) }
        }
        return samples
    }

    private func run(_ query: HealthSampleQuery) {
        let handler = query.resultsHandler
        guard query.begin() else {
            return handler(query, nil, HealthStoreError.queryAlreadyExecuted(query: query.name))
        }
        if let error = queryError(query, limit: query.limit) {
            if query.finish() { handler(query, nil, error) }
            return
        }
        let type = query.objectType
        let pushed = query.predicate.flatMap(BridgePredicates.healthKit)
        let exact = query.predicate == nil || pushed != nil
        let sort = query.sortDescriptors.map {
            NSSortDescriptor(
                key: $0.key == .endDate ? HKSampleSortIdentifierEndDate : HKSampleSortIdentifierStartDate,
                ascending: $0.ascending)
        }
        let healthKitQuery = HKSampleQuery(
            sampleType: BridgeTypes.healthKitSample(type)!, predicate: pushed,
            limit: exact ? query.limit : HKObjectQueryNoLimit, sortDescriptors: sort.isEmpty ? nil : sort
        ) { [self] _, objects, error in
            guard finished(query) else { return }
            guard var samples = converted(objects) else {
                return handler(query, nil, error.map { BridgeErrors.healthFlow($0, type: type) })
            }
            if !exact, let predicate = query.predicate {
                samples = samples.filter(predicate.evaluate)
                if query.limit > 0 { samples = Array(samples.prefix(query.limit)) }
            }
            handler(query, samples, nil)
        }
        start(healthKitQuery, for: query)
    }

    private func run(_ query: HealthAnchoredObjectQuery) {
        let handler = query.resultsHandler
        guard query.begin() else {
            return handler(query, nil, nil, nil, HealthStoreError.queryAlreadyExecuted(query: query.name))
        }
        if let error = queryError(query, limit: query.limit) {
            if query.finish() { handler(query, nil, nil, nil, error) }
            return
        }
        let type = query.objectType
        let pushed = query.predicate.flatMap(BridgePredicates.healthKit)
        let filter = pushed == nil ? query.predicate : nil
        let anchor: HKQueryAnchor?
        do throws(HealthStoreError) {
            anchor = try state.withLock { state throws(HealthStoreError) in try state.anchors.healthKit(query.anchor) }
        } catch {
            if query.finish() { handler(query, nil, nil, nil, error) }
            return
        }
        let healthKitQuery = HKAnchoredObjectQuery(
            type: BridgeTypes.healthKitSample(type)!, predicate: pushed, anchor: anchor, limit: query.limit
        ) { [self] _, objects, deleted, next, error in
            let keepsRunning = query.updateHandler != nil
            guard keepsRunning ? query.isRunning : finished(query) else { return }
            deliver(query, handler, objects, deleted, next, error, filter: filter)
        }
        if let updates = query.updateHandler {
            healthKitQuery.updateHandler = { [self] _, objects, deleted, next, error in
                guard query.isRunning else { return }
                deliver(query, updates, objects, deleted, next, error, filter: filter)
            }
        }
        start(healthKitQuery, for: query)
    }

    private func deliver(
        _ query: HealthAnchoredObjectQuery, _ handler: HealthAnchoredObjectQuery.Handler, _ objects: [HKSample]?,
        _ deleted: [HKDeletedObject]?, _ next: HKQueryAnchor?, _ error: (any Error)?, filter: SamplePredicate?
    ) {
        guard var samples = converted(objects), let next else {
            let failure =
                error.map { BridgeErrors.healthFlow($0, type: query.objectType) }
                ?? .unknown(reason: "HealthKit returned no anchor")
            return handler(query, nil, nil, nil, failure)
        }
        if let filter { samples = samples.filter(filter.evaluate) }
        let (tombstones, anchor) = state.withLock { state in
            let tombstones = (deleted ?? []).map { object in
                HealthDeletedObject(
                    uuid: state.uuids[object.uuid] ?? object.uuid, metadata: BridgeMetadata.healthFlow(object.metadata))
            }
            return (tombstones, state.anchors.healthFlow(next))
        }
        handler(query, samples, tombstones, anchor, nil)
    }

    private func run(_ query: HealthObserverQuery) {
        guard query.begin() else {
            let handler = query.updateHandler
            return handler(query, {}, HealthStoreError.queryAlreadyExecuted(query: query.name))
        }
        if let error = queryError(query, limit: 0) {
            if query.finish() { query.deliver(error: error) }
            return
        }
        let type = query.objectType
        let healthKitQuery = HKObserverQuery(
            sampleType: BridgeTypes.healthKitSample(type)!,
            predicate: query.predicate.flatMap(BridgePredicates.healthKit)
        ) { _, completionHandler, error in
            guard query.isRunning else { return completionHandler() }
            // HealthFlow's completion handler calls HealthKit's: an app that acknowledges an update through
            // HealthFlow acknowledges the background delivery too.
            query.deliver(
                error: error.map { BridgeErrors.healthFlow($0, type: type) }, acknowledged: completionHandler)
        }
        start(healthKitQuery, for: query)
    }
}
