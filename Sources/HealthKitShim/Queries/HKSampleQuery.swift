import Foundation
import HealthFlow

/// Fetches samples of one type matching a predicate, sorted and limited.
public final class HKSampleQuery: HKQuery, @unchecked Sendable {
    // @unchecked: restated from HKQuery; this subclass adds `let`s set once in init.
    private let handler: ShimCallback<(HKSampleQuery, [HKSample]?, (any Error)?) -> Void>
    private let sortDescriptors: [SampleSortDescriptor]

    /// The maximum number of samples (`HKObjectQueryNoLimit` for all).
    public let limit: Int

    /// A sample query.
    public init(
        sampleType: HKSampleType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
        resultsHandler: @escaping (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
    ) {
        self.handler = ShimCallback(call: resultsHandler)
        self.sortDescriptors = ShimSort.healthFlow(sortDescriptors)
        self.limit = limit
        super.init(type: sampleType.healthFlowType, predicate: predicate)
    }

    override func makeHealthFlowQuery() -> HealthQuery {
        let handler = handler
        return HealthSampleQuery(
            sampleType: queriedType ?? .height, predicate: samplePredicate, limit: limit,
            sortDescriptors: sortDescriptors
        ) { [self] _, samples, error in
            handler.call(self, samples?.map(HKObject.make), error.map(HKError.init))
        }
    }
}

/// Fetches the samples and deletions since an anchor, then (with an update handler) keeps reporting them.
public final class HKAnchoredObjectQuery: HKQuery, @unchecked Sendable {
    // @unchecked: restated from HKQuery; `updateHandler` is set before `execute` (HealthKit forbids changing
    // it afterwards) and read once when the query starts.
    typealias Handler = (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?)
        -> Void

    private let handler: ShimCallback<Handler>
    private let anchor: HKQueryAnchor?
    private let limit: Int

    /// Called with later changes; set it before executing the query to keep the query running.
    public var updateHandler:
        ((HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) -> Void)?

    /// An anchored object query.
    public init(
        type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int,
        resultsHandler handler:
            @escaping (
                HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?
            ) -> Void
    ) {
        self.handler = ShimCallback(call: handler)
        self.anchor = anchor
        self.limit = limit
        super.init(type: type.healthFlowType, predicate: predicate)
    }

    override func makeHealthFlowQuery() -> HealthQuery {
        let results = handler
        let updates = updateHandler.map { ShimCallback(call: $0) }
        var forwardUpdates: HealthAnchoredObjectQuery.Handler?
        if let updates {
            forwardUpdates = { [self] _, samples, deleted, anchor, error in
                forward(updates, samples, deleted, anchor, error)
            }
        }
        return HealthAnchoredObjectQuery(
            type: queriedType ?? .height, predicate: samplePredicate, anchor: anchor?.healthFlowAnchor, limit: limit,
            updateHandler: forwardUpdates
        ) { [self] _, samples, deleted, anchor, error in
            forward(results, samples, deleted, anchor, error)
        }
    }

    private func forward(
        _ handler: ShimCallback<Handler>, _ samples: [HealthSample]?, _ deleted: [HealthDeletedObject]?,
        _ anchor: HealthQueryAnchor?, _ error: (any Error)?
    ) {
        let added: [HKSample]? = samples?.map(HKObject.make)
        let removed: [HKDeletedObject]? = deleted?.map(HKDeletedObject.init(healthFlowObject:))
        let next: HKQueryAnchor? = anchor.map(HKQueryAnchor.init(healthFlowAnchor:))
        handler.call(self, added, removed, next, error.map(HKError.init))
    }
}

/// The completion handler an observer query's update handler must call.
public typealias HKObserverQueryCompletionHandler = @Sendable () -> Void

/// Tells the app that samples of a type changed (then the app fetches them). Call the completion handler
/// every time, or HealthKit retries background deliveries with back-off.
public final class HKObserverQuery: HKQuery, @unchecked Sendable {
    // @unchecked: restated from HKQuery; this subclass adds one `let` set in init.
    private let handler:
        ShimCallback<(HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void>

    /// An observer query.
    public init(
        sampleType: HKSampleType, predicate: NSPredicate?,
        updateHandler: @escaping (HKObserverQuery, @escaping HKObserverQueryCompletionHandler, (any Error)?) -> Void
    ) {
        self.handler = ShimCallback(call: updateHandler)
        super.init(type: sampleType.healthFlowType, predicate: predicate)
    }

    override func makeHealthFlowQuery() -> HealthQuery {
        let handler = handler
        return HealthObserverQuery(sampleType: queriedType ?? .height, predicate: samplePredicate) {
            [self] _, completion, error in
            handler.call(self, completion, error.map(HKError.init))
        }
    }
}
