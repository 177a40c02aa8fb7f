/// A sorted run of fixed-size look-up column entries in a writer's scratch file.
struct SegmentSpilledRun: Equatable {
    /// Byte offset of the run's first entry.
    let offset: Int
    let entryCount: Int
}

/// Where a ``SegmentWriter`` spills sorted runs of its look-up columns once they pass its run length: a scratch
/// file made on the first spill, written, then opened again for reading with `pread`. Removing it is the
/// caller's.
struct SegmentScratch {
    let create: () throws(FileStoreError) -> any StoreFile
    let openForReading: () throws(FileStoreError) -> any ReadableStoreFile
}

/// The entries of several sorted runs in a file, merged into one sorted sequence (a k-way merge over a binary
/// heap), reading each run `chunkEntries` entries at a time.
///
/// Memory holds one chunk per run and the heap: O(k · chunk) for k runs, whatever the runs' lengths.
struct SegmentRunMerge<Entry> {
    private struct Cursor {
        let run: SegmentSpilledRun
        var read = 0
        var buffer: [Entry] = []
        var position = 0
    }

    private let file: any ReadableStoreFile
    private let entrySize: Int
    private let chunkEntries: Int
    private let decode: (UnsafeRawBufferPointer, Int) -> Entry
    private let precedes: (Entry, Entry) -> Bool
    private var cursors: [Cursor]
    /// Run numbers, a min-heap by their cursors' head entries.
    private var heap: [Int] = []

    /// - Parameters:
    ///   - decode: The entry at a byte offset of a buffer of whole entries.
    ///   - precedes: The runs' order (strict).
    init(
        file: any ReadableStoreFile, runs: [SegmentSpilledRun], entrySize: Int, chunkEntries: Int,
        decode: @escaping (UnsafeRawBufferPointer, Int) -> Entry, precedes: @escaping (Entry, Entry) -> Bool
    ) throws(FileStoreError) {
        self.file = file
        self.entrySize = entrySize
        self.chunkEntries = max(1, chunkEntries)
        self.decode = decode
        self.precedes = precedes
        cursors = runs.map { Cursor(run: $0) }
        for run in cursors.indices where try refill(run) { push(run) }
    }

    /// The bytes of entries buffered and of the heap.
    var bufferedBytes: Int {
        cursors.reduce(0) { $0 + $1.buffer.capacity * MemoryLayout<Entry>.stride }
            + heap.capacity * MemoryLayout<Int>.stride + cursors.capacity * MemoryLayout<Cursor>.stride
    }

    /// The smallest entry not yet taken, or `nil` when every run is exhausted.
    /// - Complexity: O(log k), plus a chunk read every `chunkEntries` entries of a run.
    mutating func next() throws(FileStoreError) -> Entry? {
        guard let top = heap.first else { return nil }
        let entry = cursors[top].buffer[cursors[top].position]
        cursors[top].position += 1
        if cursors[top].position == cursors[top].buffer.count, !(try refill(top)) {
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                siftDown(0)
            }
        } else {
            siftDown(0)
        }
        return entry
    }

    /// Reads the next chunk of run `index`; `false` when the run is exhausted.
    private mutating func refill(_ index: Int) throws(FileStoreError) -> Bool {
        let run = cursors[index].run
        let count = min(chunkEntries, run.entryCount - cursors[index].read)
        guard count > 0 else {
            cursors[index].buffer = []
            return false
        }
        let bytes = try file.read(count: count * entrySize, at: run.offset + cursors[index].read * entrySize)
        let entrySize = entrySize
        var buffer = cursors[index].buffer
        cursors[index].buffer = []
        buffer.removeAll(keepingCapacity: true)
        bytes.withUnsafeBytes { raw in
            for entry in 0..<count { buffer.append(decode(raw, entry * entrySize)) }
        }
        cursors[index].buffer = buffer
        cursors[index].read += count
        cursors[index].position = 0
        return true
    }

    private func head(_ run: Int) -> Entry {
        cursors[run].buffer[cursors[run].position]
    }

    private mutating func push(_ run: Int) {
        heap.append(run)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(head(heap[child]), head(heap[parent])) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, precedes(head(heap[left + 1]), head(heap[left])) { smallest = left + 1 }
            guard precedes(head(heap[smallest]), head(heap[parent])) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
