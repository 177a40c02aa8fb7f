import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

extension ActivityRingsExample: DrawnExample {
    /// Fetch the week's summaries through the service, then draw the rings: the promise style's two steps.
    public static func flow(in context: ExampleContext, on queue: OperationQueue) -> OperationChain<[String]> {
        let tracker = StoreActivityTracker(store: context.store, calendar: utcCalendar)
        let (from, to) = lastDays(before: context.now)
        return OperationChain(on: queue, name: "activity rings")
            .then("fetch summaries", promise: { tracker.activitySummaries(from: from, to: to) })
            .then("rings") { ringLines($0) }
    }
}
