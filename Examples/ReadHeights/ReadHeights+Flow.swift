import ExampleSupport
import FlowKit
import Foundation
import HealthFlow

extension ReadHeightsExample: DrawnExample {
    /// Check that height may be read, fetch newest first, format: the promise style's three steps.
    public static func flow(in context: ExampleContext, on queue: OperationQueue) -> OperationChain<[String]> {
        OperationChain(on: queue, name: "read heights")
            .then("check height", promise: { context.store.availableType(.height) })
            .then("fetch, newest first", promise: { context.store.samples(of: .height, sortedBy: newestFirst) })
            .then("format") { heightLines($0) }
    }
}
