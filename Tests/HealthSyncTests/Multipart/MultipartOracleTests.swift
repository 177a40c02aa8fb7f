import Foundation
import HealthSync
import ReceiverSupport
import Testing

/// Encodes bodies and has two real parsers, Werkzeug and python-multipart, read them back
/// (see `GzipMultipartOracleScript`), on the tests' own Python environment (`TestPython`).
@Suite struct MultipartOracleTests {
    struct Entry: Decodable, Equatable, CustomStringConvertible {
        var name: String
        var filename: String?
        var contentType: String?
        var size: Int
        var sha256: String

        enum CodingKeys: String, CodingKey {
            case name, filename, size, sha256
            case contentType = "content_type"
        }

        init(name: String, filename: String? = nil, contentType: String? = nil, content: Data) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.size = content.count
            self.sha256 = GzipMultipartSHA256.hex(content)
        }

        var description: String { "\(name) \(filename ?? "-") \(contentType ?? "-") \(size) \(sha256.prefix(12))" }
    }

    struct Seen: Decodable {
        var werkzeug: [Entry]
        var pythonMultipart: [Entry]

        enum CodingKeys: String, CodingKey {
            case werkzeug
            case pythonMultipart = "python_multipart"
        }
    }

    /// Runs the oracle on `body`; records an issue (failing the test) when a parser is missing.
    func parse(_ body: MultipartBody) async throws -> Seen? {
        let directory = try GzipMultipartSupport.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent(GzipMultipartOracleScript.fileName)
        try Data(GzipMultipartOracleScript.source.utf8).write(to: script)
        let bodyFile = directory.appendingPathComponent("body.bin")
        try body.data().write(to: bodyFile)
        let python: URL
        do {
            python = try await TestPython.ready()
        } catch {
            Issue.record("\(error)")
            return nil
        }
        let result = try GzipMultipartSupport.run(
            python.path, [script.path, bodyFile.path, body.boundary.value], in: directory)
        switch result.status {
        case 0:
            return try JSONDecoder().decode(Seen.self, from: result.stdout)
        case 3:
            Issue.record(
                "python-multipart is missing from \(TestPython.environment.path): delete that folder to rebuild it")
        case 4:
            Issue.record("Werkzeug is missing from \(TestPython.environment.path): delete that folder to rebuild it")
        default:
            Issue.record("the multipart oracle failed (exit \(result.status)): \(result.stderr)")
        }
        return nil
    }

    private func sorted(_ entries: [Entry]) -> [Entry] {
        entries.sorted { ($0.name, $0.filename ?? "") < ($1.name, $1.filename ?? "") }
    }

    @Test func bothParsersSeeAPlainField() async throws {
        let value = Data("Apple Watch ⌚️, série 10".utf8)
        let body = try MultipartBody(parts: [try MultipartPart(name: "device", data: value)])
        let seen = try #require(try await parse(body))
        let expected = [Entry(name: "device", content: value)]
        #expect(seen.werkzeug == expected)
        #expect(seen.pythonMultipart == expected)
    }

    @Test func bothParsersSeeAFileWithARawUTF8Filename() async throws {
        let content = gzipMultipartJSONLike(byteCount: 4096)
        let filename = "Grüße 🩺 Blutzucker 2026-11.json"
        let body = try MultipartBody(parts: [
            try MultipartPart(name: "export", filename: filename, contentType: "application/json", data: content)
        ])
        #expect(!String(decoding: try body.data(), as: UTF8.self).contains("filename*"))
        let seen = try #require(try await parse(body))
        let expected = [Entry(name: "export", filename: filename, contentType: "application/json", content: content)]
        #expect(seen.werkzeug == expected)
        #expect(seen.pythonMultipart == expected)
    }

    @Test func contentThatLooksLikeABoundaryIsParsedAsContent() async throws {
        let tricky = Data(
            ("first line\r\n--HealthFlow-notTheRealBoundary\r\nContent-Disposition: form-data; name=\"evil\"\r\n\r\n"
                + "evil\r\n--HealthFlow-notTheRealBoundary--\r\n--\r\n--").utf8)
        let body = try MultipartBody(parts: [
            try MultipartPart(name: "tricky", filename: "tricky.txt", contentType: "text/plain", data: tricky),
            try MultipartPart(
                name: "stream", filename: "stream.bin", contentType: "application/octet-stream", length: 300_007,
                makeStream: { GzipMultipartGeneratedStream(length: 300_007) }),
            try MultipartPart(name: "last", data: Data("end".utf8)),
        ])
        let streamContent = try MultipartBody(
            parts: [
                try MultipartPart(
                    name: "s", length: 300_007, makeStream: { GzipMultipartGeneratedStream(length: 300_007) })
            ],
            boundary: MultipartBoundary("x")
        ).data().dropFirst(Data("--x\r\nContent-Disposition: form-data; name=\"s\"\r\n\r\n".utf8).count).prefix(300_007)
        let seen = try #require(try await parse(body))
        let expected = [
            Entry(name: "last", content: Data("end".utf8)),
            Entry(
                name: "stream", filename: "stream.bin", contentType: "application/octet-stream",
                content: streamContent),
            Entry(name: "tricky", filename: "tricky.txt", contentType: "text/plain", content: tricky),
        ]
        #expect(sorted(seen.werkzeug) == expected)
        #expect(sorted(seen.pythonMultipart) == expected)
    }

    @Test func fieldNameWithCRLFIsRejectedBeforeEncoding() {
        #expect(throws: MultipartError.invalidFieldName("name\r\nX-Injected: 1")) {
            try MultipartPart(name: "name\r\nX-Injected: 1", data: Data("v".utf8))
        }
    }

    @Test func mimeTypeWithAQuoteIsRejectedNamingTheField() {
        let type = "text/plain; charset=\"utf-8\""
        #expect(throws: MultipartError.invalidContentType(type, field: "notes")) {
            try MultipartPart(name: "notes", filename: "notes.txt", contentType: type, data: Data())
        }
    }

    @Test func sha256MatchesTheStandardVector() {
        #expect(
            GzipMultipartSHA256.hex(Data("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            GzipMultipartSHA256.hex(Data())
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
