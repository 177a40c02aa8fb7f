import Testing

@testable import healthflow

/// The import's allocator tuning takes effect where the C library is glibc, and changes nothing elsewhere.
@Suite struct AllocatorTuningTests {
    @Test func theLargeBlockThresholdIsFixedOnGlibcAndLeftAloneElsewhere() {
        #if canImport(Glibc)
            #expect(AllocatorTuning.boundLargeBlocks())
        #else
            #expect(!AllocatorTuning.boundLargeBlocks())
        #endif
    }
}
