import ExampleSupport
import FlowKit
import Foundation
import HealthFlow
import HealthSync
import ObserveAndUploadExample
import ReceiverSupport
import Testing

/// Forwards every upload, noting its batch ID.
private final class RecordingTransport: UploadTransport {
    let inner: any UploadTransport
    private let ids = LockedState<[UUID]>([])

    init(inner: any UploadTransport) {
        self.inner = inner
    }

    var batchIDs: [UUID] { ids.withLock { $0 } }

    func upload(_ request: UploadRequest) -> Promise<UploadReceipt> {
        ids.withLock { $0.append(request.batchID) }
        return inner.upload(request)
    }
}

@Suite struct ObserveAndUploadExampleTests {
    static let gatheredLine = "gathered stepCount: 24, heartRate: 48, sleepAnalysis: 4, electrocardiogram: 1"
    static let counts = ["stepCount": 24, "heartRate": 48, "sleepAnalysis": 4, "electrocardiogram": 1]

    @Test func theEmbeddedDefaultUploadsOneBatchIntoTheOutbox() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try await ObserveAndUploadExample.prepare(context)
        let outcome = await ObserveAndUploadExample.run(.promise, in: context)
        #expect(outcome == .lines([Self.gatheredLine, "uploaded 1 batch: 77 samples, 0 deletions (stored)"]))
        let outbox = try OutboxTransport(directory: ObserveAndUploadExample.outboxDirectory(of: context))
        #expect(try outbox.storedBatchIDs().count == 1)
    }

    /// The three styles, one after the other, to the real receiver: each batch is accepted (both multipart parsers
    /// agree, the JSON matches the schema) and holds exactly the store's samples of the observed types.
    @Test func theThreeStylesUploadTheSameSamplesToTheReceiver() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try await ObserveAndUploadExample.prepare(context)
        var inStore = Set<String>()
        for type in ObserveAndUploadExample.observedTypes {
            inStore.formUnion(try await context.store.samples(of: type).map(\.uuid.uuidString))
        }
        #expect(inStore.count == 77)

        try await withTestReceiver { receiver in
            let transport = RecordingTransport(inner: HTTPTransport(url: receiver.uploadURL))
            var outcomes: [ExampleStyle: ExampleOutcome] = [:]
            for style in ExampleStyle.allCases {
                outcomes[style] = await ObserveAndUploadExample.run(style, in: context, to: transport)
            }
            for style in ExampleStyle.allCases {
                #expect(
                    outcomes[style]
                        == .lines([Self.gatheredLine, "uploaded 1 batch: 77 samples, 0 deletions (stored)"]),
                    "\(style): \(receiver.log)")
            }
            let ids = transport.batchIDs
            #expect(ids.count == 3 && Set(ids).count == 3)
            var received: [Set<String>] = []
            for id in ids {
                let receipt = try await receiver.receipt(for: id)
                #expect(receipt.samples == Self.counts)
                #expect(receipt.deletions.isEmpty)
                received.append(Set(receipt.sampleUUIDs))
            }
            #expect(received.allSatisfy { $0 == inStore })
            let stats = try await receiver.stats()
            #expect(stats.batches == 3 && stats.rejected == 0)
            #expect(stats.distinctSamples == 77 && stats.maxCountPerSample == 3)
        }
    }

    @Test func reportsTheFirstQueryErrorWhenHealthDataIsUnavailable() async {
        let store = InMemoryHealthStore(configuration: ExampleContext.app, isHealthDataAvailable: false)
        let context = ExampleContext(store: store, source: ExampleContext.app.source, now: ExampleContext.fixedNow)
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        var outcomes: [ExampleOutcome] = []
        for style in ExampleStyle.allCases { outcomes.append(await ObserveAndUploadExample.run(style, in: context)) }
        #expect(outcomes.allSatisfy { if case .failure = $0 { true } else { false } })
        #expect(Set(outcomes).count == 1)
    }

    /// Nothing listens on 127.0.0.1:9: every style ends with the same error, the transport's.
    @Test func aFailedUploadEndsEveryStyleWithTheSameError() async throws {
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        try await ObserveAndUploadExample.prepare(context)
        let closed = HTTPTransport(url: URL(string: "http://127.0.0.1:9/upload")!, timeout: .seconds(10))
        var outcomes: [ExampleOutcome] = []
        for style in ExampleStyle.allCases {
            outcomes.append(await ObserveAndUploadExample.run(style, in: context, to: closed))
        }
        #expect(outcomes.allSatisfy { if case .failure = $0 { true } else { false } }, "\(outcomes)")
        #expect(Set(outcomes).count == 1)
    }
}
