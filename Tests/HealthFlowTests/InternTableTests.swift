import Foundation
import Testing

@testable import HealthFlow

/// Units and sources are interned (`InternTable`): equal values made apart share one storage, so a copy retains
/// nothing; past the table's limit a value gets storage of its own and is still equal to, and hashes like, an
/// interned one.
@Suite struct InternTableTests {
    private final class Box: Sendable {
        let text: String
        init(_ text: String) { self.text = text }
    }

    @Test func aKeyIsMadeOnceThenSharedUntilTheTableIsFull() {
        let table = InternTable<String, Box>(limit: 2)
        var made = 0
        let first = table.storage(for: "a") {
            made += 1; return Box("a")
        }
        let again = table.storage(for: "a") {
            made += 1; return Box("a")
        }
        #expect(made == 1 && first.isIdentical(to: again) && first.isInterned)
        let second = table.storage(for: "b") { Box("b") }
        #expect(second.isInterned && !second.isIdentical(to: first))
        let pastTheLimit = table.storage(for: "c") { Box("c") }
        let pastAgain = table.storage(for: "c") { Box("c") }
        #expect(!pastTheLimit.isInterned && !pastTheLimit.isIdentical(to: pastAgain))
        #expect(pastTheLimit.object.text == "c" && pastAgain.object.text == "c")
        #expect(table.storage(for: "b") { Box("b") }.isIdentical(to: second), "kept keys stay interned")
    }

    @Test func unitsMadeApartShareOneStorageAndAnOwnedUnitIsStillEqual() throws {
        let parsed = try HealthUnit(from: "mL/(kg*min)")
        let built = HealthUnit.literUnit(with: .milli).unitDivided(
            by: .gramUnit(with: .kilo).unitMultiplied(by: .minute()))
        #expect(parsed.isIdentical(to: built))
        let owned = HealthUnit(factors: parsed.factors, internedIn: InternTable(limit: 0))
        #expect(!owned.isIdentical(to: parsed))
        #expect(owned == parsed && parsed == owned && owned.hashValue == parsed.hashValue)
        #expect(owned.dimension == parsed.dimension && owned.unitString == parsed.unitString)
        let other = HealthUnit(factors: try HealthUnit(from: "mL/min").factors, internedIn: InternTable(limit: 0))
        #expect(other != parsed && parsed != other && other != owned)
        #expect(try HealthUnit.convert(1, from: owned, to: HealthUnit(from: "L/(kg*hr)")) == 0.06)
    }

    @Test func sourcesMadeApartShareOneStorageAndAnOwnedSourceIsStillEqual() {
        let source = HealthSource(bundleIdentifier: "com.example.scale", name: "Scale")
        let again = HealthSource(bundleIdentifier: "com.example.scale", name: "Scale")
        #expect(source.isIdentical(to: again))
        let owned = HealthSource(
            bundleIdentifier: "com.example.scale", name: "Scale", internedIn: InternTable(limit: 0))
        #expect(!owned.isIdentical(to: source) && owned == source && source == owned)
        #expect(owned.hashValue == source.hashValue)
        #expect(Set([source, owned, again]).count == 1)
        let renamed = HealthSource(bundleIdentifier: "com.example.scale", name: "Scale 2")
        #expect(renamed != source && renamed != owned)
    }

    /// A source keeps the bytes it was made with: a name spelled with a combining accent is equal to the same
    /// name with the accented letter as one scalar (as `String` compares), but is not given the other's bytes.
    @Test func aSourceKeepsItsOwnSpellingOfAnEqualName() {
        let composed = HealthSource(bundleIdentifier: "com.example.watch", name: "Zo\u{EB}’s Watch, Series 9")
        let decomposed = HealthSource(bundleIdentifier: "com.example.watch", name: "Zoe\u{308}’s Watch, Series 9")
        #expect(composed == decomposed && composed.hashValue == decomposed.hashValue)
        #expect(Array(composed.name.utf8) != Array(decomposed.name.utf8))
        #expect(Array(decomposed.name.utf8) == Array("Zoe\u{308}’s Watch, Series 9".utf8))
        #expect(!composed.isIdentical(to: decomposed))
    }
}
