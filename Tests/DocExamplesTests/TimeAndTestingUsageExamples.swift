import FlowKit
import Foundation
import Testing

extension DocExamples {
    /// The other examples of `FlowKit.docc/TimeAndTesting.md`.
    @Suite struct TimeAndTesting {
        /// Compiled, not run: the example waits real seconds on the default scheduler.
        func waitingDelayingAndTimingOut(uploader: BatchUploader, batch: Batch) {
            let showBanner: @Sendable () -> Promise<String> = { Promise(value: "banner") }
            let hideBanner: @Sendable (String) -> Void = { _ in }
            _ = after(.seconds(2)).done { print("two seconds later") }  // a Promise<Void>

            showBanner().delay(.seconds(3)).done { hideBanner($0) }  // the value, three seconds later; errors at once
                .catch { print("no banner: \($0)") }

            uploader.send(batch)
                .timeout(.seconds(30))  // rejects with PromiseError.timedOut(after:)
                .catch { print($0) }
        }

        /// The retry example; a synchronous function, where `retry` is the promise form.
        func retryingUpload(of batch: Batch, with uploader: BatchUploader) -> Promise<Int> {
            enum UploadError: Error {
                case tooManyRequests(retryAfter: Duration?)
                case server(status: Int)
            }

            let receipt = retry(attempts: 5, backoff: .exponential(initial: .milliseconds(500))) {
                uploader.send(batch)
            } while: { error, attempt in
                switch error {
                case UploadError.tooManyRequests(let retryAfter?): .retryAfter(retryAfter)
                case UploadError.server(let status) where status >= 500: .retry
                case is URLError: .retry
                default: .stop
                }
            }
            return receipt
        }

        @Test func retryReturnsTheFirstSuccessWithoutWaiting() async throws {
            let uploader = BatchUploader()
            #expect(try await retryingUpload(of: Batch(id: 1, count: 5), with: uploader).value == 5)
            #expect(uploader.sent.recorded == [1])
        }

        @Test func retryStopsAtOnceWhenTheWhileClosureSaysSo() async throws {
            let uploader = BatchUploader(failing: [1])
            await #expect(throws: BatchUploader.Rejected.self) {
                try await retryingUpload(of: Batch(id: 1, count: 5), with: uploader).value
            }
            #expect(uploader.sent.recorded == [1])
        }
    }
}
