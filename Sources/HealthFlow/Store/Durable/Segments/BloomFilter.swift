/// A Bloom filter over UUIDs: "certainly not here" or "maybe here", in `bitsPerKey` bits a key, so a segment can
/// answer most look-ups of a UUID it does not hold without reading its UUID blocks from disk.
///
/// The bit positions come from the UUID's two 64-bit halves, each mixed by a fixed function (not `Hasher`,
/// whose seed changes per process: a filter is written to a file and read back by later processes). With 14
/// bits a key and 10 probes (the default), about 0.12 % of absent keys read as present; with 10 bits and 7 probes
/// (segments written before), about 0.8 %. Every new sample's UUID is looked up in every segment of every type
/// before it is stored, and a false positive costs a UUID block read (5 KB, checksummed), so the extra 4 bits a key
/// (0.5 bytes of memory a row) pay for themselves.
struct BloomFilter: Equatable {
    /// The bits, 64 a word; never empty.
    private(set) var words: [UInt64]
    /// How many positions a key sets and checks.
    let probes: Int

    /// An empty filter sized for `expectedKeys` at `bitsPerKey` bits each.
    init(expectedKeys: Int, bitsPerKey: Int = 14) {
        let bits = max(64, expectedKeys.multipliedReportingOverflow(by: max(1, bitsPerKey)).partialValue)
        words = [UInt64](repeating: 0, count: (bits + 63) / 64)
        // k = bits per key × ln 2, rounded; 1 … 16.
        probes = min(16, max(1, Int((Double(max(1, bitsPerKey)) * 0.69).rounded())))
    }

    /// A filter read back from a file; `nil` unless `words` is not empty and `probes` is 1 … 16.
    init?(words: [UInt64], probes: Int) {
        guard !words.isEmpty, (1...16).contains(probes) else { return nil }
        self.words = words
        self.probes = probes
    }

    mutating func insert(_ key: UUIDKey) {
        let bitCount = UInt64(words.count) &* 64
        var (position, step) = Self.hashes(key)
        for _ in 0..<probes {
            let bit = position % bitCount
            words[Int(bit >> 6)] |= 1 << (bit & 63)
            position &+= step
        }
    }

    /// A key with its two hashes (``hashes(_:)``), computed once to ask many filters: the store asks every segment
    /// of a type about the same keys, and ``HeldKeyFilter`` derives its own positions from the same hashes.
    struct Probe {
        let key: UUIDKey
        /// The first position's hash.
        let first: UInt64
        /// What each further position adds (odd).
        let step: UInt64

        init(_ key: UUIDKey) {
            self.key = key
            (first, step) = BloomFilter.hashes(key)
        }
    }

    /// `false` when `key` was certainly never inserted.
    func mayContain(_ key: UUIDKey) -> Bool {
        mayContain(Probe(key))
    }

    /// `false` when the probe's key was certainly never inserted.
    func mayContain(_ probe: Probe) -> Bool {
        let bitCount = UInt64(words.count) &* 64
        var (position, step) = (probe.first, probe.step)
        for _ in 0..<probes {
            let bit = position % bitCount
            guard words[Int(bit >> 6)] & (1 << (bit & 63)) != 0 else { return false }
            position &+= step
        }
        return true
    }

    /// Two independent hashes of the key (the second odd), for double hashing: probe i is `h1 + i·h2`.
    private static func hashes(_ key: UUIDKey) -> (UInt64, UInt64) {
        // The halves as the UUID's bytes read little-endian, so a file means the same on every machine.
        let high = UInt64(littleEndian: key.high)
        let low = UInt64(littleEndian: key.low)
        // Each hash depends on both halves, so keys that share one half (sequential UUIDs) still spread.
        let first = mix(low ^ mix(high &+ 0x9E37_79B9_7F4A_7C15))
        return (first, mix(high ^ first) | 1)
    }

    /// SplitMix64's finalizer: every input bit moves every output bit.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
