import ExampleSupport
import HealthFlow

/// The original: every step nested in the previous step's completion handler, every error handled where it
/// appears.
///
/// - Parameters:
///   - centimetres: The height.
///   - context: The store and app.
///   - completion: Called once with the printed lines or the error.
public func writeHeightWithCallbacks(
    _ centimetres: Double, in context: ExampleContext,
    completion: @escaping @Sendable (Result<[String], any Error>) -> Void
) {
    let sample: HealthQuantitySample
    do {
        sample = try heightSample(centimetres: centimetres, in: context)
    } catch {
        completion(.failure(error))
        return
    }
    context.store.requestAuthorization(toShare: [.height], read: [.height]) { success, error in
        guard success else {
            completion(.failure(error ?? HealthStoreError.unknown(reason: "authorization did not complete")))
            return
        }
        if let refusal = context.store.sharingRefusal(for: .height) {
            completion(.failure(refusal))
            return
        }
        context.store.save(.quantity(sample)) { saved, error in
            if let error {
                completion(.failure(error))
            } else if !saved {
                completion(.failure(HealthStoreError.unknown(reason: "the save did not complete")))
            } else {
                completion(.success([savedLine(sample)]))
            }
        }
    }
}
