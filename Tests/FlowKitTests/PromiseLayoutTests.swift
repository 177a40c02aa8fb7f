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
    ///
    /// The size checked is what the object asks the allocator for — its class's instance size — in glibc's
    /// arithmetic, not the chunk one object happens to get: a heap busy with other tests can hand out a whole free
    /// chunk larger than asked for (when what would be left of it is too small to split off), for every object
    /// of a sample. The chunks measured are only checked never to be smaller.
    @Suite struct PromiseLayoutTests {
        private static let fastBinLimit = 120

        /// The usable bytes glibc gives a request of `size` bytes when it splits a chunk to fit: the chunk is the
        /// request plus its 8-byte header, rounded up to 16 bytes, at least 32; the usable bytes, the chunk less
        /// the header.
        private static func usableBytes(requesting size: Int) -> Int {
            max(32, (size + 8 + 15) & ~15) - 8
        }

        /// The bytes an instance of `object`'s class asks the allocator for: the `InstanceSize` field of its class
        /// metadata, at offset 24 on a 64-bit platform without Objective-C interoperability (after the kind, the
        /// superclass, the flags and the instance address point; Swift's TypeMetadata ABI).
        private static func instanceSize(of object: AnyObject) -> Int {
            let metadata = unsafeBitCast(type(of: object), to: UnsafeRawPointer.self)
            return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
        }

        /// The usable bytes of the object's size class, from its instance size; each of 16 objects `make` makes
        /// must have got at least that many.
        private func usableBytes(_ make: () -> AnyObject) -> Int {
            let objects = (0..<16).map { _ in make() }
            let usable = Self.usableBytes(requesting: Self.instanceSize(of: objects[0]))
            // A sanitizer's allocator reports the bytes requested, not glibc's chunks.
            #if !HEALTHFLOW_SANITIZER
                let measured = objects.map { mallocUsableSize(Unmanaged.passUnretained($0).toOpaque()) }
                #expect(measured.allSatisfy { $0 >= usable }, "chunks \(measured), usable bytes \(usable)")
            #endif
            return usable
        }

        /// A class of three words: its instances are the 16-byte object header and 24 bytes of fields.
        private final class ThreeWords {
            var first = 0
            var second = 0
            var third = 0
        }

        @Test func theInstanceSizeIsReadFromTheClassMetadata() {
            #expect(Self.instanceSize(of: ThreeWords()) == 40)
            #expect(Self.usableBytes(requesting: 40) == 40)
            #expect(Self.usableBytes(requesting: 41) == 56)
            #expect(Self.usableBytes(requesting: 120) == 120)
            #expect(Self.usableBytes(requesting: 121) == 136)
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
