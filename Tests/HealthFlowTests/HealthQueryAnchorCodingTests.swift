import Foundation
import HealthFlow
import Testing

/// How anchors persist: a bare number as before, or a number with a bridge store's opaque anchor.
struct HealthQueryAnchorCodingTests {
    func json(_ anchor: HealthQueryAnchor) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(anchor), as: UTF8.self)
    }

    func decoded(_ text: String) throws -> HealthQueryAnchor {
        try JSONDecoder().decode(HealthQueryAnchor.self, from: Data(text.utf8))
    }

    @Test func anAnchorWithoutPayloadEncodesAsABareNumberAndOldFilesDecode() throws {
        #expect(try json(HealthQueryAnchor(sequence: 42)) == "42")
        #expect(try decoded("42") == HealthQueryAnchor(sequence: 42))
        #expect(try decoded("42").opaque == nil)
    }

    @Test func anAnchorWithPayloadEncodesSequenceAndBase64AndDecodesBack() throws {
        let anchor = HealthQueryAnchor(sequence: 7, opaque: Data([0, 1, 2, 250]))
        #expect(try json(anchor) == #"{"opaque":"AAEC+g==","sequence":7}"#)
        let restored = try decoded(try json(anchor))
        #expect(restored == anchor)
        #expect(restored.opaque == Data([0, 1, 2, 250]))
        let plist = try PropertyListDecoder().decode(
            [HealthQueryAnchor].self, from: try PropertyListEncoder().encode([anchor, HealthQueryAnchor(sequence: 8)]))
        #expect(plist == [anchor, HealthQueryAnchor(sequence: 8)])
    }

    @Test func equalityAndHashIncludeThePayload() {
        let plain = HealthQueryAnchor(sequence: 7)
        let withPayload = HealthQueryAnchor(sequence: 7, opaque: Data([1]))
        let otherPayload = HealthQueryAnchor(sequence: 7, opaque: Data([2]))
        #expect(plain != withPayload)
        #expect(withPayload != otherPayload)
        #expect(withPayload == HealthQueryAnchor(sequence: 7, opaque: Data([1])))
        #expect(Set([plain, withPayload, otherPayload, HealthQueryAnchor(sequence: 7, opaque: Data([1]))]).count == 3)
        #expect(withPayload.description == "anchor(7)")
    }

    @Test func malformedAnchorsAreDecodingErrors() {
        for text in [
            "-1", "[42]", #""42""#, #"{"sequence":7}"#, #"{"opaque":"AAEC"}"#, #"{"sequence":-1,"opaque":"AAEC"}"#,
            #"{"sequence":7,"opaque":"not base64!"}"#, #"{"sequence":7,"opaque":3}"#,
        ] {
            #expect(throws: DecodingError.self, "\(text)") { try decoded(text) }
        }
    }
}
