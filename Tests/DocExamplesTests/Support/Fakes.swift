import FlowKit
import Foundation

/// A profile, as the articles' examples load, decode and show it.
struct Profile: Equatable, Sendable, Decodable {
    var name: String

    static let placeholder = Profile(name: "—")
}

/// A scale with a callback API: it answers `measure` with its reading, or with its error.
struct Scale: Sendable {
    var reading: Double?
    var error: (any Error)?

    func measure(completion: @escaping @Sendable (Double?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion(reading, error) }
    }
}

/// Loads a profile through a `Result` completion handler.
struct ProfileLoader: Sendable {
    var profile: Profile

    func load(completion: @escaping @Sendable (Result<Profile, any Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(profile)) }
    }
}

/// A spinner that prints when it starts and stops, so a test sees the order.
struct Spinner: Sendable {
    func start() { print("spinner started") }
    func stop() { print("spinner stopped") }
}

/// Heights, as a store's promise API returns them.
struct HeightSource: Sendable {
    let fetch: @Sendable () -> Promise<[Double]>

    func heights() -> Promise<[Double]> { fetch() }
}

/// A profile, as a cache or a server's promise API returns it.
struct ProfileSource: Sendable {
    let fetch: @Sendable () -> Promise<Profile>

    func profile() -> Promise<Profile> { fetch() }
}

/// A thread-safe list of what an example recorded.
final class Recording<Element: Sendable>: Sendable {
    private let elements = LockedState<[Element]>([])

    init() {}

    var recorded: [Element] { elements.withLock { $0 } }

    func record(_ element: Element) { elements.withLock { $0.append(element) } }
}

/// A batch of samples to upload.
struct Batch: Sendable, Equatable {
    var id: Int
    var count: Int
}

/// An uploader that records each batch it was sent and fails the ones it was told to fail.
final class BatchUploader: Sendable {
    struct Rejected: Error, Equatable {}

    let failing: Set<Int>
    let sent = Recording<Int>()

    init(failing: Set<Int> = []) { self.failing = failing }

    func send(_ batch: Batch) -> Promise<Int> {
        sent.record(batch.id)
        return failing.contains(batch.id) ? Promise(error: Rejected()) : Promise(value: batch.count)
    }
}
