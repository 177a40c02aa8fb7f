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

        /// The usable bytes of the object's size class: the smallest chunk among 16 objects `make` makes. One chunk
        /// alone can be larger than its object asked for, never smaller: glibc hands out a whole free chunk when what
        /// would be left of it is too small to split off, which a heap busy with other tests makes happen at random.
        private func usableBytes(_ make: () -> AnyObject) -> Int {
            let objects = (0..<16).map { _ in make() }
            return objects.map { mallocUsableSize(Unmanaged.passUnretained($0).toOpaque()) }.min() ?? .max
        }

        @Test func aPendingPromiseFitsTheAllocatorsFastBins() {
            let size = usableBytes {
                let (promise, resolver) = Promise<Int>.pending()
                resolver.fulfill(1)
                return promise
            }
            #expect(size <= Self.fastBinLimit)
        }

        @Test func aMapLinkOnAQueueFitsTheAllocatorsFastBins() {
            let queue = DispatchQueue(label: "layout")
            let size = usableBytes {
                let (promise, resolver) = Promise<Int>.pending()
                let link = promise.map(on: .queue(queue)) { $0 + 1 }
                resolver.fulfill(1)
                return link
            }
            #expect(size <= Self.fastBinLimit)
        }

        @Test func aThenLinkFitsTheAllocatorsFastBins() {
            let size = usableBytes {
                let (promise, resolver) = Promise<Int>.pending()
                let link = promise.then(on: .immediate) { Promise(value: $0 + 1) }
                resolver.fulfill(1)
                return link
            }
            #expect(size <= Self.fastBinLimit)
        }
    }
#endif
