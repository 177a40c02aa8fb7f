import Dispatch
import FlowKit

/// A backend's one background writer of segments: a type's full memtable, sealed, is written as a segment here
/// (``SegmentMemtableWrite``) while changes go on into a new memtable, so a writer of changes does not wait for a
/// segment's encoding, `fsync`, rename and directory `fsync`. Writes run one at a time, in the order started.
///
/// - Note: Sendable: its only property is a serial queue.
final class SegmentFlusher: Sendable {
    private let queue = DispatchQueue(label: "HealthFlow.SegmentFlusher")

    /// Starts `write` after the writes started before it.
    func start(_ write: SegmentMemtableWrite) {
        queue.async { write.run() }
    }

    /// Lets go of `write` on the flusher's queue, after the writes started before: its rows (each sample with its
    /// metadata) are usually freed there, not on the thread making changes. The caller drops its own reference.
    func release(_ write: SegmentMemtableWrite) {
        queue.async { withExtendedLifetime(write) {} }
    }
}

/// A sealed memtable being written as segment ``name`` by the ``SegmentFlusher``, made atomically
/// (``SegmentFileMaker``). Its rows never change: the flusher reads them to write the segment while the storage's
/// reads see them (newer than every segment, older than the memtable) until the segment is put in its place.
///
/// - Note: Sendable, unchecked: ``rows`` is never changed once sealed (both threads only read it), and the outcome
///   is behind a lock, set once by the flusher before it signals.
final class SegmentMemtableWrite: @unchecked Sendable {
    /// What the write came to. Sendable, unchecked: the segment reader it carries is made by the flusher and only
    /// read by the storage after ``wait()``.
    enum Outcome: @unchecked Sendable {
        /// The segment is in place under its name; see ``SegmentFileMaker/Made/directoryFlushFailure``.
        case made(SegmentFileMaker.Made)
        /// Nothing has the segment's name; the rows are only in the sealed memtable (and the log).
        case failed(FileStoreError)
    }

    let name: SegmentName
    let rows: SegmentMemtable
    /// The sequence number of the newest change the rows hold: sealed memtables of several types are put in place
    /// in this order.
    let newestSequence: UInt64
    private let maker: SegmentFileMaker
    private let outcome = LockedState<Outcome?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(name: SegmentName, rows: SegmentMemtable, newestSequence: UInt64, maker: SegmentFileMaker) {
        self.name = name
        self.rows = rows
        self.newestSequence = newestSequence
        self.maker = maker
    }

    /// Writes the segment: on the flusher's queue, or on the caller's thread when the storage has no flusher.
    func run() {
        let result: Outcome
        do throws(FileStoreError) {
            result = .made(
                try maker.make(name, expectedRows: rows.count) { (writer: inout SegmentWriter) throws(FileStoreError) in
                    try rows.forEachInStartOrder { (row, isNewest) throws(FileStoreError) in
                        try SegmentFileMaker.append(row, to: &writer, making: name, indexed: isNewest)
                    }
                })
        } catch {
            result = .failed(error)
        }
        outcome.withLock { $0 = result }
        finished.signal()
    }

    /// Whether the write has finished (its outcome is known without waiting).
    var isFinished: Bool { outcome.withLock { $0 != nil } }

    /// The write's outcome, once it has finished.
    func wait() -> Outcome {
        finished.wait()
        finished.signal()
        // Set before the signal waited for.
        return outcome.withLock { $0! }
    }
}
