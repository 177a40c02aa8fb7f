import FlowKit
import Foundation
import HealthExportTestSupport
import HealthFlow
import Testing

@testable import HealthExport

/// ``BatchWriteAhead``: up to its depth of batches handed over while the store writes, written one at a time in
/// the order given, and none written after a failed write or a cancellation.
@Suite(.timeLimit(.minutes(10)))
struct BatchWriteAheadTests {
    /// One step count a batch, its value the batch's number.
    static func batch(_ number: Int) throws -> [HealthSample] {
        let start = Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(number) * 60)
        return [
            .quantity(
                try HealthQuantitySample(
                    type: .stepCount, quantity: HealthQuantity(unit: .count(), doubleValue: Double(number)),
                    start: start, end: start.addingTimeInterval(60),
                    source: HealthSource(bundleIdentifier: "com.example.phone", name: "Phone")))
        ]
    }

    static func store() -> IngestObservingStore {
        IngestObservingStore(InMemoryHealthStore(configuration: ExportFixtures.app), recordsBatches: true)
    }

    static func values(_ batches: [[HealthSample]]) -> [[Double]] {
        batches.map { batch in
            batch.map { sample in
                guard case .quantity(let steps) = sample else { return -1 }
                return (try? steps.quantity.doubleValue(for: .count())) ?? -1
            }
        }
    }

    @Test func itsDepthOfBatchesIsHandedOverWhileTheStoreIsStillWritingTheFirst() throws {
        let store = Self.store()
        let release = DispatchSemaphore(value: 0)
        let firstHeld = DispatchSemaphore(value: 0)
        let calls = LockedState(0)
        store.onIngest.withLock {
            $0 = {
                let call = calls.withLock { count in
                    count += 1
                    return count
                }
                guard call == 1 else { return }
                firstHeld.signal()
                // Bounded: the test fails rather than hangs if it never releases the store.
                _ = release.wait(timeout: .now() + 60)
            }
        }
        let writeAhead = BatchWriteAhead(depth: 4, isCancelled: { false })
        let writer = ExportWriter(store: store)
        for number in 1...4 {
            #expect(!writeAhead.isFull)
            writeAhead.start(try Self.batch(number), with: writer)
        }
        #expect(firstHeld.wait(timeout: .now() + 60) == .success)
        #expect(writeAhead.isFull, "four batches in flight while the first is still being written")
        #expect(store.ingestCalls.count == 1, "the others wait for it: one write at a time")
        release.signal()
        var settled: [[HealthSample]] = []
        while let outcome = writeAhead.settle() { settled.append(try outcome.result.get()) }
        #expect(Self.values(settled) == [[1], [2], [3], [4]])
        #expect(Self.values(store.ingestCalls) == [[1], [2], [3], [4]], "written in the order given")
        #expect(!writeAhead.isFull)
    }

    @Test func noBatchBehindAFailedWriteIsHandedToTheStore() throws {
        let store = Self.store()
        store.refusing.withLock { $0 = 2 }
        let writeAhead = BatchWriteAhead(depth: 4, isCancelled: { false })
        let writer = ExportWriter(store: store)
        for number in 1...4 { writeAhead.start(try Self.batch(number), with: writer) }
        var results: [Result<[HealthSample], any Error>] = []
        while let outcome = writeAhead.settle() { results.append(outcome.result) }
        #expect(results.count == 4)
        #expect(Self.values([try results[0].get()]) == [[1]])
        #expect(throws: IngestObservingStore.Refused(call: 2)) { try results[1].get() }
        for result in results[2...] {
            #expect(throws: BatchWriteAhead.NotWritten.self) { try result.get() }
        }
        #expect(Self.values(store.ingestCalls) == [[1], [2]])
    }

    @Test func noBatchWhoseWriteWouldStartAfterACancellationIsWritten() throws {
        let store = Self.store()
        let cancelled = LockedState(false)
        // The first write cancels the import, as a caller watching its progress may.
        store.onIngest.withLock { $0 = { cancelled.withLock { $0 = true } } }
        let writeAhead = BatchWriteAhead(depth: 3, isCancelled: { cancelled.withLock { $0 } })
        let writer = ExportWriter(store: store)
        for number in 1...3 { writeAhead.start(try Self.batch(number), with: writer) }
        var results: [Result<[HealthSample], any Error>] = []
        while let outcome = writeAhead.settle() { results.append(outcome.result) }
        #expect(Self.values([try results[0].get()]) == [[1]])
        #expect(throws: CancellationError.self) { try results[1].get() }
        #expect(throws: BatchWriteAhead.NotWritten.self) { try results[2].get() }
        #expect(Self.values(store.ingestCalls) == [[1]])
    }
}
