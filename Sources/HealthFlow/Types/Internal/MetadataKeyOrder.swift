/// The one order in which metadata is written everywhere (files, logs, sync payloads): entries by their keys'
/// raw values, compared as strings.
extension Dictionary where Key == MetadataKey, Value == MetadataValue {
    /// The most entries sorted as positions on the stack; larger dictionaries are sorted as an array of entries.
    private static var stackSortLimit: Int { 32 }

    /// Calls `body` with each entry in key order (``MetadataKey/rawValue``, as `String` compares).
    ///
    /// Sorts the entries' positions in a stack buffer by insertion, so a dictionary of a sample's few entries is
    /// visited without allocating or copying its entries into an array.
    /// - Complexity: O(n²) comparisons for n ≤ 32 entries (a sample holds a handful), O(n log n) beyond.
    package func forEachInKeyOrder(_ body: (MetadataKey, MetadataValue) throws -> Void) rethrows {
        guard count > 1 else {
            if let (key, value) = first { try body(key, value) }
            return
        }
        guard count <= Self.stackSortLimit else {
            for (key, value) in sorted(by: { $0.key.rawValue < $1.key.rawValue }) { try body(key, value) }
            return
        }
        try withUnsafeTemporaryAllocation(of: Index.self, capacity: count) { order in
            let positions = order.baseAddress!
            var filled = 0
            defer { positions.deinitialize(count: filled) }
            var index = startIndex
            while index != endIndex {
                let key = keys[index].rawValue
                var slot = filled
                while slot > 0, key < keys[positions[slot - 1]].rawValue { slot -= 1 }
                (positions + slot + 1).moveInitialize(from: positions + slot, count: filled - slot)
                (positions + slot).initialize(to: index)
                filled += 1
                formIndex(after: &index)
            }
            for slot in 0..<filled {
                let (key, value) = self[positions[slot]]
                try body(key, value)
            }
        }
    }
}
