import Testing

@testable import HealthSync

/// The one rule for server text in messages: nothing that acts on a terminal gets through, and it stays short.
struct ServerTextTests {
    @Test func controlAndFormatCharactersAreShownAsEscapes() {
        let text = ServerText.printable("/x\u{1B}[2J\u{1B}]0;pwned\u{07}\r\n\u{9B}31m\u{202E}evil\u{2028}end\u{7F}")
        #expect(text == #"/x\u{1B}[2J\u{1B}]0;pwned\u{7}\u{D}\u{A}\u{9B}31m\u{202E}evil\u{2028}end\u{7F}"#)
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test func longTextIsCutToTheLimitWithAnEllipsis() {
        let long = ServerText.printable(String(repeating: "a", count: 100_000))
        #expect(long.count == ServerText.maximumCharacters && long.hasSuffix("…"))
        let escapes = ServerText.printable(String(repeating: "\u{1B}", count: 100_000))
        #expect(escapes.count == ServerText.maximumCharacters && escapes.hasSuffix("…"))
        #expect(ServerText.printable("/upload?x=é") == "/upload?x=é")
    }
}
