import Foundation
import HealthSync
import Testing

/// Hostile names and filenames against both independent parsers (Werkzeug and python-multipart): each is either
/// refused with a typed error before a byte is written, or both parsers see exactly one part of the intended kind
/// (a file part exactly when a filename was given), named as intended — exactly, or in its percent-encoded form —
/// with its payload intact.
extension MultipartOracleTests {
    /// One case: a name, and a filename or none.
    struct Hostile: Sendable, CustomStringConvertible {
        var name: String
        var filename: String?
        var description: String { "name \(name.debugDescription), filename \(filename.debugDescription)" }
    }

    static let tooLong = String(repeating: "x", count: MultipartPart.maximumParameterBytes + 1)

    /// Written, and must reach both parsers as one part each.
    static let written: [Hostile] = {
        let plainNames = [
            "a\"b", "\"", "\"\"", "\\", "a\\", "\\a", "a\\b", "a\\\"; filename=\"evil.sh", "x\\; name=admin",
            "; name=admin; filename=evil.sh", "a;b", "a=b", "name=\"admin\"", "--HealthFlow-boundary",
            "--\r", "%22", "%5C", "Grüße", "心拍数", "🩺 heart", "\u{200F}مرحبا", "a\u{202E}txt.exe", "  spaced  ",
            "'single'", "a/b/../c", String(repeating: "é", count: MultipartPart.maximumParameterBytes / 2),
        ].filter { !$0.contains("\r") }
        let filenames = [
            "evil.sh\\", "\\", "a\\\"; name=admin", "; name=admin; filename=evil.sh", "a\"b.txt", "\"quoted\".json",
            "--HealthFlow-x.bin", "résumé.pdf", "血糖.csv", "🩺.json", "\u{200F}تقرير.txt", "..\\..\\etc\\passwd",
            "a;b=c.txt", String(repeating: "f", count: MultipartPart.maximumParameterBytes),
        ]
        return plainNames.map { Hostile(name: $0, filename: nil) }
            + plainNames.prefix(12).map { Hostile(name: $0, filename: "data.bin") }
            + filenames.map { Hostile(name: "upload", filename: $0) }
            + [Hostile(name: "x\\", filename: "; name=admin; filename=evil.sh")]
    }()

    /// Refused with a typed error.
    static let refused: [Hostile] = [
        Hostile(name: "", filename: nil), Hostile(name: "a\rb", filename: nil), Hostile(name: "a\nb", filename: nil),
        Hostile(name: "a\r\nContent-Type: text/html", filename: nil), Hostile(name: "a\u{0}b", filename: nil),
        Hostile(name: "a\tb", filename: nil), Hostile(name: "a\u{7F}", filename: nil),
        Hostile(name: tooLong, filename: nil),
        Hostile(name: "upload", filename: ""), Hostile(name: "upload", filename: "a\r\n\r\n--x"),
        Hostile(name: "upload", filename: "a\u{0}.sh"), Hostile(name: "upload", filename: "\u{1B}[2J.txt"),
        Hostile(name: "upload", filename: tooLong),
    ]

    /// The forms a parser may report for `value`: as given, percent-encoded, or encoded with one of `%22` and
    /// `%5C` turned back (Werkzeug decodes `%22` in filenames, and nothing else).
    static func acceptable(_ value: String) -> Set<String> {
        let encoded = MultipartPart.encodeParameter(value)
        return [
            value, encoded, encoded.replacingOccurrences(of: "%22", with: "\""),
            encoded.replacingOccurrences(of: "%5C", with: "\\"),
        ]
    }

    @Test func hostileNamesAndFilenamesAreRefusedTyped() {
        #expect(Self.written.count + Self.refused.count >= 30)
        for hostile in Self.refused {
            #expect(throws: MultipartError.self, "\(hostile)") {
                try MultipartPart(name: hostile.name, filename: hostile.filename, data: Data("x".utf8))
            }
        }
    }

    @Test func hostileNamesAndFilenamesReachBothParsersAsOnePartEach() async throws {
        // One body holding every case, each with its own payload: an injected or lost part changes the count, a
        // part of the wrong kind or name fails its case.
        let parts = try Self.written.enumerated().map { index, hostile in
            try MultipartPart(
                name: hostile.name, filename: hostile.filename,
                contentType: hostile.filename == nil ? nil : "application/gzip",
                data: Data("payload \(index) \(hostile.name)".utf8))
        }
        let body = try MultipartBody(parts: parts)
        let seen = try #require(try await parse(body))
        for (parser, entries) in [("werkzeug", seen.werkzeug), ("python-multipart", seen.pythonMultipart)] {
            #expect(entries.count == Self.written.count, "\(parser) saw \(entries.count) parts")
            for (index, hostile) in Self.written.enumerated() {
                let payload = Entry(name: "", content: Data("payload \(index) \(hostile.name)".utf8))
                let matches = entries.filter { $0.sha256 == payload.sha256 }
                guard matches.count == 1, let entry = matches.first else {
                    Issue.record("\(parser): \(matches.count) parts carry the payload of \(hostile)")
                    continue
                }
                #expect(Self.acceptable(hostile.name).contains(entry.name), "\(parser): \(hostile) named \(entry.name)")
                if let filename = hostile.filename {
                    #expect(
                        entry.filename.map { Self.acceptable(filename).contains($0) } == true,
                        "\(parser): \(hostile) has filename \(entry.filename.debugDescription)")
                } else {
                    #expect(entry.filename == nil, "\(parser): \(hostile) became a file part")
                }
            }
        }
    }

    @Test func unicodeNamesAndFilenamesAreRecoveredExactlyByBothParsers() async throws {
        let cases = [
            ("Grüße", "résumé.pdf"), ("心拍数", "血糖.csv"), ("🩺 heart", "🩺.json"), ("\u{200F}مرحبا", "\u{200F}تقرير.txt"),
        ]
        let body = try MultipartBody(
            parts: try cases.map { name, filename in
                try MultipartPart(name: name, filename: filename, contentType: "text/plain", data: Data(name.utf8))
            })
        let seen = try #require(try await parse(body))
        let expected = cases.map { name, filename in
            Entry(name: name, filename: filename, contentType: "text/plain", content: Data(name.utf8))
        }
        let bySHA = { (entries: [Entry]) in entries.sorted { $0.sha256 < $1.sha256 } }
        #expect(bySHA(seen.werkzeug) == bySHA(expected))
        #expect(bySHA(seen.pythonMultipart) == bySHA(expected))
    }
}
