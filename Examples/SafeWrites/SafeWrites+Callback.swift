import ExampleSupport
import HealthFlow

/// The original style: each step starts in the previous step's completion handler, and each handler checks
/// its own error before going on.
///
/// - Parameters:
///   - context: The store and app.
///   - completion: Called once with one line per step.
public func safeWritesWithCallbacks(
    in context: ExampleContext, completion: @escaping @Sendable (Result<[String], any Error>) -> Void
) {
    @Sendable func step(_ index: Int, _ lines: [String]) {
        guard index < pitfalls.count else {
            completion(.success(lines))
            return
        }
        let pitfall = pitfalls[index]
        let next: @Sendable (Result<Void, any Error>) -> Void = { outcome in
            step(index + 1, lines + [pitfall.line(outcome)])
        }
        switch pitfall.action {
        case .authorize(let share, let read):
            context.store.requestAuthorization(toShare: share, read: read) { success, error in
                next(success ? .success(()) : .failure(error ?? HealthStoreError.unknown(reason: "no answer")))
            }
        case .save(let make):
            let sample: HealthSample
            do {
                sample = try make(context)
            } catch {
                next(.failure(error))
                return
            }
            context.store.save(sample) { success, error in
                next(success ? .success(()) : .failure(error ?? HealthStoreError.unknown(reason: "not saved")))
            }
        }
    }
    step(0, [])
}
