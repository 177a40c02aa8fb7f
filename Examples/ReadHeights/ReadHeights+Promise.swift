import ExampleSupport
import FlowKit
import HealthFlow

/// The same steps as a chain: the availability check, the query, the formatting.
///
/// - Parameter context: The store and app.
/// - Returns: A promise of the lines.
public func readHeightsWithPromises(in context: ExampleContext) -> Promise<[String]> {
    context.store.availableType(.height)
        .then { context.store.samples(of: .height, sortedBy: newestFirst) }
        .map { heightLines($0) }
}
