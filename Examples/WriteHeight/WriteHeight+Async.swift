import ExampleSupport
import FlowKit
import HealthFlow

/// The same steps with async/await: straight-line code, one `do`/`catch` at the caller.
///
/// - Parameters:
///   - centimetres: The height.
///   - context: The store and app.
/// - Returns: The printed lines.
/// - Throws: `UnitError`, `ValidationError` or `HealthStoreError`.
public func writeHeightAsync(_ centimetres: Double, in context: ExampleContext) async throws -> [String] {
    let sample = try heightSample(centimetres: centimetres, in: context)
    try await context.store.availableType(.height)
    try await context.store.save(.quantity(sample))
    return [savedLine(sample)]
}
