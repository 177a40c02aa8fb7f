/// A hash table from UUIDs to values, for the store's UUID index (a million entries and more): open
/// addressing with linear probing, at most three quarters full, and a key's hash a 128-bit multiply of its two
/// words mixed with two seeds drawn per table (so a batch of UUIDs cannot be chosen to collide without knowing
/// them) — a few instructions where `Hasher` runs SipHash.
///
/// - Complexity: Lookup, insertion and removal O(1) on average; growing rehashes every entry once (amortized
///   O(1) per insertion).
struct UUIDTable<Value> {
    fileprivate struct Bucket {
        let key: UUIDKey
        var value: Value
    }

    private var buckets: [Bucket?]
    private let seeds: (UInt64, UInt64)
    /// The number of entries.
    private(set) var count = 0

    /// An empty table with room for `capacity` entries before it grows.
    init(minimumCapacity capacity: Int = 0) {
        var generator = SystemRandomNumberGenerator()
        seeds = (generator.next(), generator.next())
        buckets = Array(repeating: nil, count: Self.bucketCount(for: capacity))
    }

    /// The smallest power of two, at least 8, that holds `capacity` entries at most three quarters full.
    private static func bucketCount(for capacity: Int) -> Int {
        var count = 8
        while count / 4 * 3 < capacity { count *= 2 }
        return count
    }

    private func home(of key: UUIDKey) -> Int {
        let product = (key.high ^ seeds.0).multipliedFullWidth(by: key.low ^ seeds.1)
        return Int(truncatingIfNeeded: product.high ^ product.low) & (buckets.count - 1)
    }

    /// The bucket holding `key`, or the empty bucket where it would go.
    private func find(_ key: UUIDKey) -> (bucket: Int, found: Bool) {
        let mask = buckets.count - 1
        var bucket = home(of: key)
        while let occupant = buckets[bucket] {
            if occupant.key == key { return (bucket, true) }
            bucket = (bucket + 1) & mask
        }
        return (bucket, false)
    }

    subscript(key: UUIDKey) -> Value? {
        get {
            let (bucket, found) = find(key)
            return found ? buckets[bucket]?.value : nil
        }
        set {
            if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
        }
    }

    /// Whether the table holds `key`.
    func contains(_ key: UUIDKey) -> Bool {
        find(key).found
    }

    /// Stores `value` under `key`; returns the value it replaced, if any.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: UUIDKey) -> Value? {
        let (bucket, found) = find(key)
        if found {
            defer { buckets[bucket]?.value = value }
            return buckets[bucket]?.value
        }
        add(key, value, at: bucket)
        return nil
    }

    /// Adds `key` with `value` unless the table holds it; returns whether it was added. One probe either way.
    mutating func insertNew(_ key: UUIDKey, _ value: Value) -> Bool {
        let (bucket, found) = find(key)
        guard !found else { return false }
        add(key, value, at: bucket)
        return true
    }

    /// Adds `key`, which the table does not hold, at `bucket` (where `find` stopped), growing first if needed.
    private mutating func add(_ key: UUIDKey, _ value: Value, at bucket: Int) {
        var bucket = bucket
        if (count + 1) > buckets.count / 4 * 3 {
            grow(to: buckets.count * 2)
            bucket = find(key).bucket
        }
        buckets[bucket] = Bucket(key: key, value: value)
        count += 1
    }

    /// Removes `key`; returns its value, if it was there.
    @discardableResult
    mutating func removeValue(forKey key: UUIDKey) -> Value? {
        let (position, found) = find(key)
        guard found, let removed = buckets[position] else { return nil }
        // Backward-shift deletion: move up each later entry of the run that may sit in the freed bucket (its
        // home is not cyclically after the freed bucket and up to where it sits), so no tombstones are needed.
        let mask = buckets.count - 1
        var free = position
        var next = (free + 1) & mask
        while let occupant = buckets[next] {
            let home = home(of: occupant.key)
            let staysPut = free <= next ? (free < home && home <= next) : (free < home || home <= next)
            if !staysPut {
                buckets[free] = occupant
                free = next
            }
            next = (next + 1) & mask
        }
        buckets[free] = nil
        count -= 1
        return removed.value
    }

    /// Calls `body` with every entry, in no particular order.
    func forEach(_ body: (UUIDKey, Value) throws -> Void) rethrows {
        for case let bucket? in buckets { try body(bucket.key, bucket.value) }
    }

    /// Makes room for `capacity` entries in all, growing (doubling) only when needed.
    mutating func reserveCapacity(_ capacity: Int) {
        let needed = Self.bucketCount(for: capacity)
        if needed > buckets.count { grow(to: needed) }
    }

    private mutating func grow(to bucketCount: Int) {
        let old = buckets
        buckets = Array(repeating: nil, count: bucketCount)
        let mask = bucketCount - 1
        for case let bucket? in old {
            var position = home(of: bucket.key)
            while buckets[position] != nil { position = (position + 1) & mask }
            buckets[position] = bucket
        }
    }
}

extension UUIDTable: Sendable where Value: Sendable {}
extension UUIDTable.Bucket: Sendable where Value: Sendable {}
