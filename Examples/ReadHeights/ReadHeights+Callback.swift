import ExampleSupport
import HealthFlow

/// The original: request, check, then build and run a sample query, each in the last one's completion.
///
/// - Parameters:
///   - context: The store and app.
///   - completion: Called once with the lines or the error.
public func readHeightsWithCallbacks(
    in context: ExampleContext, completion: @escaping @Sendable (Result<[String], any Error>) -> Void
) {
    context.store.requestAuthorization(toShare: [.height], read: [.height]) { success, error in
        guard success else {
            completion(.failure(error ?? HealthStoreError.unknown(reason: "authorization did not complete")))
            return
        }
        if let refusal = context.store.sharingRefusal(for: .height) {
            completion(.failure(refusal))
            return
        }
        let query = HealthSampleQuery(sampleType: .height, sortDescriptors: newestFirst) { _, samples, error in
            if let error {
                completion(.failure(error))
            } else {
                completion(.success(heightLines(samples ?? [])))
            }
        }
        context.store.execute(query)
    }
}
