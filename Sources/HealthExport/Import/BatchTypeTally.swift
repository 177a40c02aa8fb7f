import HealthFlow

/// How many samples of each type a batch holds, counted as the samples are added: the import reads the counts and
/// types back from here rather than each sample's type from the batch, which copies the sample (and retains
/// everything it holds) to read one field. A batch holds few types, in runs.
struct BatchTypeTally {
    /// The types in the order first added, with how many samples of each.
    private(set) var counts: [(type: HealthObjectType, count: Int)] = []
    /// Where the type added last is in ``counts``.
    private var last: Int?

    init() {}

    /// The tally of `samples`.
    init(_ samples: [HealthSample]) {
        for index in samples.indices { add(samples[index].type) }
    }

    /// Counts one more sample of `type`.
    /// - Complexity: O(1) within a run of one type; else O(t) for t types counted.
    mutating func add(_ type: HealthObjectType) {
        if let last, counts[last].type == type {
            counts[last].count += 1
        } else if let known = counts.firstIndex(where: { $0.type == type }) {
            counts[known].count += 1
            last = known
        } else {
            counts.append((type, 1))
            last = counts.count - 1
        }
    }

    /// The types counted, in the order first added.
    var types: [HealthObjectType] { counts.map(\.type) }
}
