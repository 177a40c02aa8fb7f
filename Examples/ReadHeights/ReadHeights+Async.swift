import ExampleSupport
import FlowKit
import HealthFlow

/// The same steps with async/await.
///
/// - Parameter context: The store and app.
/// - Returns: The lines.
/// - Throws: `HealthStoreError`.
public func readHeightsAsync(in context: ExampleContext) async throws -> [String] {
    try await context.store.availableType(.height)
    let heights = try await context.store.samples(of: .height, sortedBy: newestFirst)
    return heightLines(heights)
}
