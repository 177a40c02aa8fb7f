/// Every UUID a segmented store's memtables and segments have held since the filter was built, in memory: it
/// answers "held nowhere" for a new UUID in a few probes, where asking each type's memtable and each of its
/// segments' Bloom filters costs a probe per type and segment — with dozens of types, most of an import's
/// uniqueness checks.
///
/// Only a superset matters. A key the store holds must be in it: building reads every segment's UUID blocks and
/// every memtable's keys, and from then on every row a memtable takes adds its key
/// (``SegmentedTypeStorage/insert(_:)``; flushes and merges only move keys between a memtable and segments, and
/// a deletion's key was added with its sample). A key the store no longer holds (a deleted sample, a segment a
/// repair set aside) stays, and costs a false positive — the full look-up — never a wrong answer.
///
/// The keys live in levels of standard Bloom filters, 14 bits and 10 probes a key (about 0.12 % false positives
/// each when full); the first level holds twice the keys found when building, at least ``firstCapacity``, and each
/// next level twice the one before, so a store growing from empty to n keys keeps about log₂(n / 65,536) levels.
/// Memory: 1.75 bytes a key in full levels; the capacity opened ahead of the keys is at most twice what they fill
/// once past the second level (3.5 bytes a key; 5.25 just after the second level opens). The positions are the segments' double hashes (``BloomFilter/Probe``), mapped onto
/// a level by a multiply instead of a division; the levels are never written to a file.
///
/// Not thread-safe: used under the backend's lock.
final class HeldKeyFilter {
    /// The keys the first level is sized for when building finds fewer than half as many.
    static let firstCapacity = 65_536
    static let bitsPerKey = 14
    static let probes = 10

    /// One Bloom filter of the chain; the newest takes the keys added.
    private struct Level {
        var words: [UInt64]
        let bitCount: UInt64
        let capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            let words = (capacity * HeldKeyFilter.bitsPerKey + 63) / 64
            self.words = [UInt64](repeating: 0, count: words)
            bitCount = UInt64(words) * 64
        }

        mutating func insert(_ probe: BloomFilter.Probe) {
            var position = probe.first
            for _ in 0..<HeldKeyFilter.probes {
                let bit = bitCount.multipliedFullWidth(by: position).high
                words[Int(bit >> 6)] |= 1 << (bit & 63)
                position &+= probe.step
            }
            count += 1
        }

        func mayContain(_ probe: BloomFilter.Probe) -> Bool {
            var position = probe.first
            for _ in 0..<HeldKeyFilter.probes {
                let bit = bitCount.multipliedFullWidth(by: position).high
                guard words[Int(bit >> 6)] & (1 << (bit & 63)) != 0 else { return false }
                position &+= probe.step
            }
            return true
        }
    }

    /// The levels, oldest first; empty until built.
    private var levels: [Level] = []

    /// Whether ``build(keyCount:keys:)`` has run to its end: until then the filter answers nothing and takes no key.
    var isBuilt: Bool { !levels.isEmpty }

    /// The bytes the levels hold.
    var bytes: Int { levels.reduce(0) { $0 + $1.words.count * MemoryLayout<UInt64>.stride } }

    /// How many levels the keys fill (for tests).
    var levelCount: Int { levels.count }

    /// Fills the filter with every key `keys` calls its argument with, about `keyCount` of them; nothing happens
    /// when it is built already. When `keys` throws, the filter stays unbuilt and the error is thrown.
    func build<Failure: Error>(
        keyCount: Int, keys: ((UUIDKey) -> Void) throws(Failure) -> Void
    ) throws(Failure) {
        guard !isBuilt else { return }
        levels = [Level(capacity: max(Self.firstCapacity, keyCount.multipliedReportingOverflow(by: 2).partialValue))]
        do {
            try keys { insert($0) }
        } catch {
            levels = []
            throw error
        }
    }

    /// Adds `key`; nothing happens before the filter is built (building reads it where it is kept).
    func insert(_ key: UUIDKey) {
        guard let last = levels.indices.last else { return }
        if levels[last].count >= levels[last].capacity {
            levels.append(Level(capacity: levels[last].capacity * 2))
        }
        levels[levels.count - 1].insert(BloomFilter.Probe(key))
    }

    /// `false` when the probe's key was certainly never added; `true` for every key added, and for any key
    /// before the filter is built.
    func mayContain(_ probe: BloomFilter.Probe) -> Bool {
        guard isBuilt else { return true }
        for level in levels where level.mayContain(probe) { return true }
        return false
    }
}
