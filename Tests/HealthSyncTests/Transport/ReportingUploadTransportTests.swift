import FlowKit
import Foundation
import HealthSync
import Testing

@Suite struct ReportingUploadTransportTests {
    /// Implements only the reporting upload; records the reporters it is given and answers with `outcome`.
    final class Recorder: ReportingUploadTransport {
        let outcome: Result<UploadReceipt, any Error>
        private let reporters = LockedState<[UploadReporter]>([])

        init(_ outcome: Result<UploadReceipt, any Error>) {
            self.outcome = outcome
        }

        var received: [UploadReporter] { reporters.withLock { $0 } }

        func upload(_ request: UploadRequest, reporter: UploadReporter) -> Promise<UploadReceipt> {
            reporters.withLock { $0.append(reporter) }
            reporter.attemptStarted(batchID: request.batchID, totalBytes: request.contentLength)
            return Promise(result: outcome)
        }
    }

    static let request = UploadRequest(
        batchID: UUID(), contentType: "application/json", contentLength: 2, fileExtension: "json",
        body: .data(Data("{}".utf8)))

    @Test func plainUploadIsTheReportingUploadWithAFreshReporterEachTime() async throws {
        let receipt = UploadReceipt(batchID: Self.request.batchID, disposition: .stored, bytesSent: 2, location: nil)
        let transport = Recorder(.success(receipt))
        #expect(try await transport.upload(Self.request) == receipt)
        #expect(try await transport.upload(Self.request) == receipt)
        let reporters = transport.received
        #expect(reporters.count == 2)
        #expect(reporters.map(\.attempts) == [1, 1])
        #expect(reporters[0] !== reporters[1])
    }

    @Test func plainUploadRejectsWithTheReportingUploadsError() async {
        let transport = Recorder(.failure(UploadError.lengthMismatch(expected: 2, actual: 1)))
        await #expect(throws: UploadError.lengthMismatch(expected: 2, actual: 1)) {
            try await transport.upload(Self.request)
        }
        #expect(transport.received.count == 1)
    }
}
