import FlowKit
import Foundation
import HealthFlow
import HealthSync
import ReceiverSupport
import Testing

/// The sync engine against the real receiver (Werkzeug and python-multipart must agree on every body, the JSON must
/// match the documented schema), and the receiver's own refusals, so a passing sync test means something.
@Suite struct SyncReceiverTests {
    /// `json` gzipped into the one `batch` part the receiver expects.
    static func body(_ json: String, filename: String = "batch.json.gz") throws -> MultipartBody {
        let gzip = try GzipCompressor()
        var payload = try gzip.compress(Data(json.utf8))
        payload += try gzip.finish()
        return try MultipartBody(
            parts: [MultipartPart(name: "batch", filename: filename, contentType: "application/gzip", data: payload)])
    }

    /// A valid one-sample batch document.
    static func document(batchID: UUID, createdAt: String = "2026-11-20T10:00:00+00:00") -> String {
        """
        {"schemaVersion":1,"batchID":"\(batchID.uuidString)","deviceID":"d","createdAt":"\(createdAt)",\
        "sections":[{"type":"heartRate","samples":[{"uuid":"\(UUID().uuidString)","type":"heartRate",\
        "kind":"quantity","start":"2026-11-20T09:00:00+00:00","end":"2026-11-20T09:00:00.250+01:00",\
        "source":{"bundleIdentifier":"a","name":"b"},"value":72,"unit":"count/min","metadata":{}}],"deleted":[]}]}
        """
    }

    static func post(_ body: MultipartBody, key: UUID, to receiver: TestReceiver) async throws -> ReceiverAnswer {
        try await receiver.post(body.data(), contentType: body.contentType, idempotencyKey: key.uuidString)
    }

    @Test(arguments: [Int64(0), Int64(1 << 20)])
    func everyBatchTheEngineSendsIsAcceptedAndCountedAsTheEngineReports(dataThreshold: Int64) async throws {
        let bench = try await SyncEngineBench.make()
        defer { bench.remove() }
        let hearts = try SyncEngineBench.heartRates(10)
        let steps = try SyncEngineBench.steps(3, first: 100)
        try await bench.store.save(hearts + steps)
        try await withTestReceiver { receiver in
            let transport = HTTPTransport(url: receiver.uploadURL, dataThreshold: dataThreshold)
            let first = try await bench.engine(transport: transport, batchSize: 4).sync()
            #expect(first.batches == 4)
            try await bench.store.delete(hearts[2])
            let second = try await bench.engine(transport: transport, batchSize: 4).sync()
            #expect(second.deletions == ["heartRate": 1])

            var received: [String: Int] = [:]
            var deleted: [String: Int] = [:]
            for id in first.batchIDs + second.batchIDs {
                let receipt = try await receiver.receipt(for: id)
                #expect(receipt.batchID == id.uuidString && !receipt.duplicate)
                received.merge(receipt.samples, uniquingKeysWith: +)
                deleted.merge(receipt.deletions, uniquingKeysWith: +)
            }
            #expect(received == first.samples)
            #expect(deleted == second.deletions)
            let stats = try await receiver.stats()
            #expect(stats.batches == 5 && stats.rejected == 0 && stats.duplicates == 0)
            #expect(stats.distinctSamples == 13 && stats.maxCountPerSample == 1 && stats.deletions == 1)
            #expect(Set(try await receiver.sampleCounts().keys) == Set((hearts + steps).map(\.uuid)))
        }
    }

    @Test func aRepeatedIdempotencyKeyIsADuplicateAndCountsNothingAgain() async throws {
        try await withTestReceiver { receiver in
            let id = UUID()
            let body = try Self.body(Self.document(batchID: id))
            let first = try await Self.post(body, key: id, to: receiver)
            #expect(first.status == 201)
            #expect(try first.receipt().duplicate == false)
            let stats = try await receiver.stats()
            let again = try await Self.post(body, key: id, to: receiver)
            #expect(again.status == 200)
            #expect(try again.receipt().duplicate == true)
            #expect(try again.receipt().sampleUUIDs == first.receipt().sampleUUIDs)
            var expected = stats
            expected.duplicates += 1
            #expect(try await receiver.stats() == expected)
            #expect(expected.samples == 1)
        }
    }

    @Test func refusesTimestampsWithoutANumericOffset() async throws {
        try await withTestReceiver { receiver in
            let id = UUID()
            let answer = try await Self.post(
                Self.body(Self.document(batchID: id, createdAt: "2026-11-20T10:00:00Z")), key: id, to: receiver)
            #expect(answer.status == 400)
            #expect(answer.error?.contains("createdAt") == true)
            #expect(try await receiver.stats().batches == 0)
        }
    }

    @Test func refusesABatchWhoseIDIsNotTheIdempotencyKey() async throws {
        try await withTestReceiver { receiver in
            let answer = try await Self.post(Self.body(Self.document(batchID: UUID())), key: UUID(), to: receiver)
            #expect(answer.status == 400)
            #expect(answer.error?.contains("Idempotency-Key") == true)
        }
    }

    /// Our encoder percent-encodes `"` in filenames (RFC 7578 §4.2); Werkzeug decodes `%22`, python-multipart keeps
    /// it: the two parsers disagree, and the receiver says so instead of guessing.
    @Test func refusesABodyTheTwoParsersReadDifferently() async throws {
        try await withTestReceiver { receiver in
            let id = UUID()
            let answer = try await Self.post(
                Self.body(Self.document(batchID: id), filename: #"a"b.json.gz"#), key: id, to: receiver)
            #expect(answer.status == 400)
            #expect(answer.error?.contains("parsers disagree") == true, "\(answer.error ?? "")")
        }
    }

    @Test func refusesAPartThatIsNotGzip() async throws {
        try await withTestReceiver { receiver in
            let id = UUID()
            let body = try MultipartBody(parts: [
                MultipartPart(
                    name: "batch", filename: "b.json.gz", contentType: "application/gzip",
                    data: Data(Self.document(batchID: id).utf8))
            ])
            let answer = try await Self.post(body, key: id, to: receiver)
            #expect(answer.status == 400)
            #expect(answer.error?.contains("not gzip") == true)
        }
    }
}
