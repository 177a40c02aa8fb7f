import ExampleSupport
import Foundation
import HealthFlow

/// The seed's way: call the service, handle its result in the completion handler.
///
/// - Parameters:
///   - tracker: The completion-handler service.
///   - from: The first day.
///   - to: The last day.
///   - completion: Called once with one line per day, or the error.
public func activityRingsWithCallbacks(
    _ tracker: any ActivityTracking, from: Date, to: Date,
    completion: @escaping @Sendable (Result<[String], any Error>) -> Void
) {
    tracker.fetchActivitySummaries(from: from, to: to) { result in
        switch result {
        case .success(let summaries): completion(.success(ringLines(summaries)))
        case .failure(let error): completion(.failure(error))
        }
    }
}
