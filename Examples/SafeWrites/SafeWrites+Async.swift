import ExampleSupport
import HealthFlow

/// The same tour with async/await: a loop with a `do`/`catch` per step.
///
/// - Parameter context: The store and app.
/// - Returns: One line per step.
public func safeWritesAsync(in context: ExampleContext) async throws -> [String] {
    var lines: [String] = []
    for pitfall in pitfalls {
        do {
            switch pitfall.action {
            case .authorize(let share, let read):
                try await context.store.requestAuthorization(toShare: share, read: read)
            case .save(let make):
                try await context.store.save(try make(context))
            }
            lines.append(pitfall.line(.success(())))
        } catch {
            lines.append(pitfall.line(.failure(error)))
        }
    }
    return lines
}
