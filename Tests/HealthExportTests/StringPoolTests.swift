import Foundation
import HealthFlow
import Testing

@testable import HealthExport

/// The pool reads bytes, as the scanner's tree holds them; the tests give it strings.
extension StringPool {
    mutating func shared(_ string: String) -> String {
        var string = string
        return string.withUTF8 { shared(UnsafeRawBufferPointer($0)) }
    }

    mutating func source(named name: String) -> HealthSource {
        var name = name
        return name.withUTF8 { source(named: UnsafeRawBufferPointer($0)) }
    }
}

/// The mapper's pool of repeated strings: one buffer per distinct string and batch, never the buffer it was given,
/// bounded in size.
struct StringPoolTests {
    /// The address of a string's UTF-8 bytes (its buffer), for strings too long to be stored inline.
    func bufferAddress(_ string: String) -> UnsafeRawPointer? {
        string.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    /// A fresh heap copy of `text` (a long string, so it is not stored inline).
    func freshCopy(_ text: String) -> String {
        String(decoding: Array(text.utf8), as: UTF8.self)
    }

    @Test func equalStringsFromDifferentRecordsShareOneBuffer() {
        var pool = StringPool()
        let device = "<<HKDevice: 0x283a8c9b0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch>"
        let first = pool.shared(freshCopy(device))
        let second = pool.shared(freshCopy(device))
        #expect(first == device && second == device)
        #expect(bufferAddress(first) != nil)
        #expect(bufferAddress(first) == bufferAddress(second))
    }

    /// The pool's string, made from the bytes it was given, is the one that travels with the batch's samples to the
    /// threads that check and store them.
    @Test func aStringEntersThePoolAsACopyOfItsOwn() {
        var pool = StringPool()
        let given = freshCopy("<<HKDevice: 0x283a8c9b0>, name:iPhone, manufacturer:Apple Inc., model:iPhone>")
        let pooled = pool.shared(given)
        #expect(pooled == given && bufferAddress(pooled) != bufferAddress(given))
    }

    /// A new batch gets new buffers, so the reading thread never hands out a buffer an earlier batch's samples
    /// still hold on other threads; sources, which copy without reference counting, stay.
    @Test func aNewBatchGetsBuffersOfItsOwn() {
        var pool = StringPool()
        let version = "17.2 (21C62), build for a test"
        let first = pool.shared(freshCopy(version))
        let source = pool.source(named: "Zoë’s iPhone 15 Pro Max")
        pool.startBatch()
        let second = pool.shared(freshCopy(version))
        #expect(first == second && bufferAddress(first) != bufferAddress(second))
        #expect(bufferAddress(second) == bufferAddress(pool.shared(freshCopy(version))))
        #expect(bufferAddress(pool.source(named: "Zoë’s iPhone 15 Pro Max").name) == bufferAddress(source.name))
    }

    /// Strings equal under Unicode canonical equivalence but written differently stay as written: the pool
    /// never hands back another spelling's bytes.
    @Test func anEqualStringSpelledDifferentlyKeepsItsBytes() {
        var pool = StringPool()
        let composed = "Zo\u{EB}’s Apple Watch, version 10.2"
        let decomposed = "Zoe\u{308}’s Apple Watch, version 10.2"
        #expect(composed == decomposed)
        _ = pool.shared(freshCopy(composed))
        #expect(Array(pool.shared(freshCopy(decomposed)).utf8) == Array(decomposed.utf8))
        _ = pool.source(named: freshCopy(composed))
        #expect(Array(pool.source(named: freshCopy(decomposed)).name.utf8) == Array(decomposed.utf8))
    }

    @Test func aSourceIsMadeOncePerName() {
        var pool = StringPool()
        let name = "Zoë’s Apple Watch (Series 9, 45 mm)"
        let first = pool.source(named: freshCopy(name))
        let second = pool.source(named: freshCopy(name))
        #expect(first == HealthSource.exported(name: name))
        #expect(bufferAddress(first.name) == bufferAddress(second.name))
        #expect(bufferAddress(first.bundleIdentifier) == bufferAddress(second.bundleIdentifier))
    }

    @Test func pastTheLimitStringsPassThroughUnsharedAndUnchanged() {
        var pool = StringPool()
        for index in 0..<StringPool.limit { _ = pool.shared("a string that repeats, number \(index)") }
        let late = "a string that arrives after the pool is full, long enough to live on the heap"
        let first = pool.shared(freshCopy(late))
        for index in 0..<StringPool.recentCapacity {
            _ = pool.shared(freshCopy("another string after the pool is full, number \(index)"))
        }
        let second = pool.shared(freshCopy(late))
        #expect(first == late && second == late)
        #expect(bufferAddress(first) != bufferAddress(second), "a full pool keeps nothing new beyond the last few")
        let early = pool.shared(freshCopy("a string that repeats, number 7"))
        #expect(bufferAddress(early) == bufferAddress(pool.shared(freshCopy("a string that repeats, number 7"))))
    }

    /// The last strings handed out are found without hashing, even past the limit: a run of records repeating
    /// one device description shares it.
    @Test func aRepeatInARunIsSharedEvenPastTheLimit() {
        var pool = StringPool()
        for index in 0..<StringPool.limit { _ = pool.shared("a string that repeats, number \(index)") }
        let late = "a device description that arrives after the pool is full, long enough to live on the heap"
        let first = pool.shared(freshCopy(late))
        #expect(bufferAddress(first) == bufferAddress(pool.shared(freshCopy(late))))
    }
}
