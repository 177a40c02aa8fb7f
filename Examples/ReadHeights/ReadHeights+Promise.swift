import ExampleSupport
import FlowKit
import HealthFlow

/// The same steps as a chain: the availability check, the query, the formatting.
///
/// ```swift
/// readHeightsWithPromises(in: context).done { print($0) }.catch { print($0) }
/// ```
/// - Parameter context: The store and app.
/// - Returns: A promise of the lines.
public func readHeightsWithPromises(in context: ExampleContext) -> Promise<[String]> {
    context.store.availableType(.height)
        .then { context.store.samples(of: .height, sortedBy: newestFirst) }
        .map { heightLines($0) }
}
