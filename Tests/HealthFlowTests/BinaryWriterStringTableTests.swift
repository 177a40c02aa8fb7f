import Foundation
import Testing

@testable import HealthFlow

/// The string table of ``BinaryWriter``: each distinct string's bytes written once, later uses as references, so a
/// reader gets every string back — whatever mix of repeated and once-only strings the recent-strings cache sees.
struct BinaryWriterStringTableTests {
    /// 24 strings that repeat (more than the cache holds; two long ones, as device descriptions are), interleaved
    /// with identifiers written once each, in a seeded random order.
    private static func strings(count: Int, seed: UInt64) -> [String] {
        var generator = SeededGenerator(seed: seed)
        let device = String(repeating: "<<HKDevice: 0x283a8c9b0>, name:Apple Watch>", count: 5)
        let repeating = (0..<22).map { "HKMetadataKey\($0)" } + [device, String(repeating: "é", count: 120)]
        return (0..<count).map { index in
            Int.random(in: 0..<4, using: &generator) == 0
                ? "\(index)-sync" : repeating[Int.random(in: 0..<repeating.count, using: &generator)]
        }
    }

    @Test(arguments: [1, 2, 3])
    func everyStringReadsBackAndEachDistinctOneIsWrittenOnce(seed: UInt64) throws {
        let written = Self.strings(count: 5_000, seed: seed)
        var writer = BinaryWriter()
        for string in written { writer.string(string) }
        let bytes = writer.bytes
        var reader = BinaryReader(bytes, range: 0..<bytes.count)
        let read = try written.indices.map { _ in try reader.string() }
        #expect(read == written)
        // Each distinct string once (its length varint, at most two bytes here, and its bytes), every other use
        // a reference of at most two bytes.
        let distinct = Set(written)
        let table = distinct.reduce(0) { $0 + $1.utf8.count + 2 }
        #expect(bytes.count <= table + (written.count - distinct.count) * 2)
    }

    /// Strings equal under Unicode canonical equivalence but written differently (a precomposed letter, and the
    /// letter with a combining accent) read back with their own bytes, whether the writer meets them in its
    /// recent strings or in its table.
    @Test func aStringSpelledDifferentlyFromAnEqualOneKeepsItsBytes() throws {
        let composed = "Zo\u{EB}’s Apple Watch"
        let decomposed = "Zoe\u{308}’s Apple Watch"
        #expect(composed == decomposed)
        let fillers = (0..<40).map { "filler \($0)" }
        let written = [composed, decomposed] + fillers + [decomposed, composed] + fillers + [composed, decomposed]
        var writer = BinaryWriter()
        for string in written { writer.string(string) }
        let bytes = writer.bytes
        var reader = BinaryReader(bytes, range: 0..<bytes.count)
        let read = try written.indices.map { _ in try reader.string() }
        #expect(read.map { Array($0.utf8) } == written.map { Array($0.utf8) })
    }
}
