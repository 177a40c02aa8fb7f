import CAllocator

/// The C allocator tuned for a long import whose peak memory must stay bounded (issue 18: ≤ 150 MB whatever the
/// export's size).
///
/// glibc maps a block of at least `M_MMAP_THRESHOLD` bytes on its own and unmaps it when it is freed, but by
/// default raises the threshold to the size of each such block freed: from then on the store's large transient
/// buffers (a merge's look-up columns and Bloom filter, about 1–5 MB each) are carved from the heap, and once
/// freed between live allocations their pages stay resident. Measured on a 4.85 GB export of 10,000,000 records
/// (`Benchmarks/README.md`): 139–156 MB peak across four runs with the default, 127 MB with the threshold fixed at
/// 256 KiB. Elsewhere (Darwin's allocator) nothing is changed.
enum AllocatorTuning {
    /// Blocks of 256 KiB or more are always mapped on their own and given back when freed.
    static let largeBlockBytes: Int32 = 256 * 1024

    /// Fixes the threshold (which also stops glibc's adjustments), for the rest of the process.
    /// - Returns: Whether it was fixed: `false` where the C library is not glibc.
    @discardableResult
    static func boundLargeBlocks() -> Bool {
        hf_fix_mmap_threshold(largeBlockBytes)
    }
}
