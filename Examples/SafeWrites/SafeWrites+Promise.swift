import ExampleSupport
import FlowKit
import HealthFlow

/// The same tour as a promise series: each step's promise is recovered into a line, and the steps run one
/// after another with `reduceSequentially`.
///
/// - Parameter context: The store and app.
/// - Returns: A promise of one line per step.
public func safeWritesWithPromises(in context: ExampleContext) -> Promise<[String]> {
    reduceSequentially(pitfalls, [String]()) { lines, pitfall in
        attempt(pitfall, in: context)
            .map { lines + [pitfall.line(.success(()))] }
            .recover { error in lines + [pitfall.line(.failure(error))] }
    }
}

/// One step as a promise.
func attempt(_ pitfall: Pitfall, in context: ExampleContext) -> Promise<Void> {
    switch pitfall.action {
    case .authorize(let share, let read):
        context.store.requestAuthorization(toShare: share, read: read)
    case .save(let make):
        firstly { context.store.save(try make(context)) }
    }
}
