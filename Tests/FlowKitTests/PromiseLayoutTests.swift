#if canImport(Glibc)
    import Dispatch
    import FlowKit
    import Glibc
    import Testing

    /// glibc's `malloc_usable_size`, which its module map does not export; looked up once.
    private let mallocUsableSize = unsafeBitCast(
        dlsym(nil, "malloc_usable_size"), to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)

    /// The common promise objects stay within glibc's fast bins (at most 120 usable bytes), which allocate and
    /// free without coalescing, also when a promise is freed on another thread than the one that made it.
    @Suite struct PromiseLayoutTests {
        private static let fastBinLimit = 120

        private func usableBytes(_ object: AnyObject) -> Int {
            mallocUsableSize(Unmanaged.passUnretained(object).toOpaque())
        }

        @Test func aPendingPromiseFitsTheAllocatorsFastBins() {
            let (promise, resolver) = Promise<Int>.pending()
            #expect(usableBytes(promise) <= Self.fastBinLimit)
            resolver.fulfill(1)
        }

        @Test func aMapLinkOnAQueueFitsTheAllocatorsFastBins() {
            let (promise, resolver) = Promise<Int>.pending()
            let link = promise.map(on: .queue(DispatchQueue(label: "layout"))) { $0 + 1 }
            #expect(usableBytes(link) <= Self.fastBinLimit)
            resolver.fulfill(1)
        }

        @Test func aThenLinkFitsTheAllocatorsFastBins() {
            let (promise, resolver) = Promise<Int>.pending()
            let link = promise.then(on: .immediate) { Promise(value: $0 + 1) }
            #expect(usableBytes(link) <= Self.fastBinLimit)
            resolver.fulfill(1)
        }
    }
#endif
