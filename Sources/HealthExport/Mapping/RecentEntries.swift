import Foundation

/// The last ``capacity`` entries added, the oldest replaced first: a cache searched from the start, for values
/// an export repeats in runs (a handful of types, sources and device descriptions, interleaved), so that a
/// repeat is found by comparing a few entries rather than by hashing or by making the value again.
struct RecentEntries<Entry> {
    /// At most ``capacity`` entries, in no particular order.
    private(set) var entries: [Entry] = []
    let capacity: Int
    /// The slot the next entry replaces once the cache is full.
    private var next = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        entries.reserveCapacity(self.capacity)
    }

    /// Adds `entry`, replacing the oldest when full. O(1).
    mutating func add(_ entry: Entry) {
        guard entries.count == capacity else { return entries.append(entry) }
        entries[next] = entry
        next = next == capacity - 1 ? 0 : next + 1
    }
}

/// The last ``RecentEntries/capacity`` values made from UTF-8 bytes (types and units by their names), found again
/// by comparing bytes, so that a repeat needs neither a string nor a hash.
struct RecentByBytes<Value> {
    private var recent: RecentEntries<(bytes: [UInt8], value: Value)>

    init(capacity: Int) {
        recent = RecentEntries(capacity: capacity)
    }

    /// The value made from `bytes`, if it is among the recent ones. O(capacity) comparisons.
    func value(for bytes: UnsafeRawBufferPointer) -> Value? {
        for index in recent.entries.indices where recent.entries[index].bytes.count == bytes.count {
            let same = recent.entries[index].bytes.withUnsafeBytes {
                bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
            if same { return recent.entries[index].value }
        }
        return nil
    }

    /// Keeps `value` as made from a copy of `bytes`, replacing the oldest when full.
    mutating func add(_ bytes: UnsafeRawBufferPointer, _ value: Value) {
        recent.add((Array(bytes), value))
    }
}
