import FlowKit
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server API with async functions.
struct ProfileAPI: Sendable {
    func profile() async throws -> Profile { Profile(name: "Ada") }
}

/// An uploader with an async API, failing with `URLError` a given number of times first.
final class FlakyUploader: Sendable {
    let attempts = Recording<Int>()
    let failures: Int

    init(failures: Int) { self.failures = failures }

    func send(_ batch: Batch) async throws -> Int {
        attempts.record(batch.id)
        if attempts.recorded.count <= failures { throw URLError(.networkConnectionLost) }
        return batch.count
    }
}

extension DocExamples {
    /// The examples of `FlowKit.docc/AsyncAwait.md`.
    @Suite struct AsyncAwait {
        let api = ProfileAPI()

        @Test func awaitsAPromisesValueOrItsResult() async throws {
            Printed.reset()
            let store = HeightSource { Promise(value: [1.72]) }
            let upload = Promise<Void>(error: URLError(.timedOut))
            let heights = try await store.heights().value  // the value, or the error thrown

            switch await upload.settled {  // never throws: a Result
            case .success: print("uploaded")
            case .failure(let error): print("failed: \(error)")
            }
            #expect(heights == [1.72])
            #expect(await Printed.lines(count: 1) == ["failed: \(URLError(.timedOut))"])
        }

        func profile() -> Promise<Profile> {
            Promise { try await api.profile() }  // runs in a new Task; optional priority: argument
        }

        @Test func aPromiseRunsAsyncWork() async throws {
            #expect(try await profile().value == Profile(name: "Ada"))
        }

        @Test func theAsyncTwinsOfWhenAndRetry() async throws {
            let uploader = FlakyUploader(failures: 0)
            let batch = Batch(id: 1, count: 10)
            @Sendable func fetchHeight() async throws -> Double { 1.72 }
            @Sendable func fetchMass() async throws -> Double { 70 }
            let (height, mass) = try await when(fulfilled: { try await fetchHeight() }, { try await fetchMass() })

            let receipt = try await retry(attempts: 4, backoff: .exponential()) {
                try await uploader.send(batch)
            } while: { error, _ in
                error is URLError ? .retry : .stop
            }
            #expect(height == 1.72 && mass == 70)
            #expect(receipt == 10)
            #expect(uploader.attempts.recorded == [1])
        }

        @Test func timeoutAwaitsAPromiseReturningClosure() async throws {
            let store = HeightSource { Promise(value: [1.72]) }
            let heights = try await timeout(.seconds(5)) { store.heights() }  // store.heights() returns a promise
            #expect(heights == [1.72])
        }

        /// Compiled, not run: the examples show which overloads an async context picks, and they wait a real second.
        func asyncTwinsWithTheirTypesStated(store: HeightSource) async throws {
            try await after(.seconds(1)) as Void
            let heights: [Double] = try await retry(attempts: 3) { store.heights() }
            _ = heights
        }

        func promisesInAnAsyncContext(store: HeightSource) async {
            let wait = Promise { try await after(.seconds(1)) }
            let shown = store.heights().done { print($0) }  // the promise you hold: no async twin is involved
            _ = (wait, shown)
        }
    }
}
