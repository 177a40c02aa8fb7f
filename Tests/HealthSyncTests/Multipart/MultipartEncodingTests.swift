import Foundation
import HealthSync
import Testing

@Suite struct MultipartBoundaryTests {
    @Test(arguments: ["a", "0", "-", "HealthFlow-abc-123", String(repeating: "Z", count: 70)])
    func acceptsLettersDigitsAndHyphensUpToSeventy(_ value: String) throws {
        #expect(try MultipartBoundary(value).value == value)
    }

    @Test(arguments: ["", "a b", "a_b", "a\"b", "a\r\nb", "grüße", "a;b", String(repeating: "Z", count: 71)])
    func rejectsAnythingElse(_ value: String) {
        #expect(throws: MultipartError.invalidBoundary(value)) { try MultipartBoundary(value) }
    }

    @Test func randomBoundariesAreValidAndDistinct() throws {
        let a = MultipartBoundary.random()
        let b = MultipartBoundary.random()
        #expect(a != b)
        #expect(try MultipartBoundary(a.value) == a)
        #expect(a.value.hasPrefix("HealthFlow-") && a.value.utf8.count == 43)
    }

    @Test func seededRandomBoundariesRepeat() {
        var first = GzipMultipartSeededGenerator(seed: 1)
        var second = GzipMultipartSeededGenerator(seed: 1)
        #expect(MultipartBoundary.random(using: &first) == MultipartBoundary.random(using: &second))
    }
}

@Suite struct MultipartPartTests {
    @Test(arguments: [
        "", "a\rb", "a\nb", "a\r\nContent-Type: evil", "a\u{0}b", "a\tb", "a\u{7F}b",
        String(repeating: "n", count: 1_025),
    ])
    func rejectsFieldNameThatIsEmptyTooLongOrHoldsAControlCharacter(_ name: String) {
        #expect(throws: MultipartError.invalidFieldName(name)) { try MultipartPart(name: name, data: Data()) }
        #expect(throws: MultipartError.invalidFieldName(name)) {
            try MultipartPart(name: name, length: 0, makeStream: { InputStream(data: Data()) })
        }
    }

    @Test(arguments: ["", "text/plain; charset=\"utf-8\"", "text/plain\r\nX-Evil: 1", "a\nb", "a\u{1}b", "tëxt/plain"])
    func rejectsContentTypeNamingTheField(_ type: String) {
        #expect(throws: MultipartError.invalidContentType(type, field: "upload")) {
            try MultipartPart(name: "upload", filename: "a.bin", contentType: type, data: Data())
        }
        #expect(MultipartError.invalidContentType(type, field: "upload").description.contains("\"upload\""))
    }

    @Test func rejectsNegativeStreamLength() {
        #expect(throws: MultipartError.invalidLength(-1, field: "big")) {
            try MultipartPart(name: "big", length: -1, makeStream: { nil })
        }
    }

    @Test func percentEncodesOnlyQuoteBackslashCRAndLF() {
        #expect(MultipartPart.encodeParameter("a\"b\\\r\nc.txt") == "a%22b%5C%0D%0Ac.txt")
        #expect(MultipartPart.encodeParameter("Grüße 🩺 50%.json") == "Grüße 🩺 50%.json")
    }

    @Test(arguments: ["", "a\u{0}.txt", "a\r\n.txt", "a\u{1B}[31m.txt", "a\u{7F}", String(repeating: "é", count: 513)])
    func rejectsFilenameThatIsEmptyTooLongOrHoldsAControlCharacter(_ filename: String) {
        #expect(throws: MultipartError.invalidFilename(filename, field: "export")) {
            try MultipartPart(name: "export", filename: filename, data: Data())
        }
    }

    @Test func aNameOrFilenameOfExactlyTheLimitIsAccepted() throws {
        let limit = String(repeating: "é", count: MultipartPart.maximumParameterBytes / 2)
        #expect(try MultipartPart(name: limit, filename: limit, data: Data()).filename == limit)
    }

    @Test func filePartsDefaultToOctetStreamAndFieldsToNoType() throws {
        #expect(try MultipartPart(name: "f", filename: "x", data: Data()).contentType == "application/octet-stream")
        #expect(try MultipartPart(name: "n", data: Data()).contentType == nil)
    }
}

@Suite struct MultipartBodyTests {
    private let boundary: MultipartBoundary
    init() throws { boundary = try MultipartBoundary("B0undary-42") }

    @Test func encodesTheExactBytes() throws {
        let body = try MultipartBody(
            parts: [
                try MultipartPart(name: "no\\te", data: Data("hello".utf8)),
                try MultipartPart(
                    name: "f", filename: "a\"b\\c.txt", contentType: "text/plain", data: Data("x".utf8)),
            ], boundary: boundary)
        let expected =
            "--B0undary-42\r\nContent-Disposition: form-data; name=\"no%5Cte\"\r\n\r\nhello\r\n"
            + "--B0undary-42\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a%22b%5Cc.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nx\r\n--B0undary-42--\r\n"
        let data = try body.data()
        #expect(String(decoding: data, as: UTF8.self) == expected)
        #expect(body.contentLength == Int64(data.count))
        #expect(body.contentType == "multipart/form-data; boundary=B0undary-42")
        #expect(!String(decoding: data, as: UTF8.self).contains("filename*"))
    }

    @Test func emptyBodyIsJustTheCloseDelimiter() throws {
        let body = try MultipartBody(parts: [], boundary: boundary)
        #expect(try body.data() == Data("--B0undary-42--\r\n".utf8))
        #expect(body.contentLength == 17)
    }

    @Test func contentLengthMatchesForMixedDataAndStreamedParts() throws {
        let body = try MultipartBody(parts: [
            try MultipartPart(name: "a", data: Data()),
            try MultipartPart(
                name: "s", filename: "s.bin", length: 100_003,
                makeStream: { GzipMultipartGeneratedStream(length: 100_003) }),
            try MultipartPart(name: "z", filename: "z.bin", length: 0, makeStream: { InputStream(data: Data()) }),
            try MultipartPart(name: "b", contentType: "application/json", data: Data("{}".utf8)),
        ])
        #expect(body.contentLength == Int64(try body.data().count))
    }

    @Test func explicitBoundaryInContentThrowsNamingTheField() throws {
        let trap = try MultipartPart(name: "trap", data: Data("…--B0undary-42--…".utf8))
        #expect(throws: MultipartError.boundaryInContent(boundary: "B0undary-42", field: "trap")) {
            try MultipartBody(parts: [try MultipartPart(name: "ok", data: Data()), trap], boundary: boundary)
        }
        let inHeader = try MultipartPart(name: "x", filename: "B0undary-42.txt", data: Data())
        #expect(throws: MultipartError.boundaryInContent(boundary: "B0undary-42", field: "x")) {
            try MultipartBody(parts: [inHeader], boundary: boundary)
        }
    }

    @Test func randomBoundaryFoundInContentIsRedrawn() throws {
        var probe = GzipMultipartSeededGenerator(seed: 99)
        let first = MultipartBoundary.random(using: &probe)
        let second = MultipartBoundary.random(using: &probe)
        let trap = try MultipartPart(name: "trap", data: Data("x\r\n--\(first.value)\r\n".utf8))
        var generator = GzipMultipartSeededGenerator(seed: 99)
        let body = try MultipartBody(parts: [trap], randomBoundaryUsing: &generator)
        #expect(body.boundary == second)
    }

    @Test func everyStreamIsFreshAndFollowsTheStatusContract() throws {
        let body = try MultipartBody(
            parts: [
                try MultipartPart(name: "n", data: Data("value".utf8)),
                try MultipartPart(name: "s", length: 5000, makeStream: { GzipMultipartGeneratedStream(length: 5000) }),
            ], boundary: boundary)
        let expected = try body.data()
        var buffer = [UInt8](repeating: 0, count: 7)
        for _ in 0..<2 {
            let stream = body.makeInputStream()
            #expect(stream.streamStatus == .notOpen)
            #expect(stream.read(&buffer, maxLength: buffer.count) == -1)
            stream.open()
            #expect(stream.streamStatus == .open && stream.hasBytesAvailable)
            var read = Data()
            while stream.hasBytesAvailable {
                let count = stream.read(&buffer, maxLength: buffer.count)
                #expect(count >= 0)
                read.append(contentsOf: buffer[0..<max(count, 0)])
                if count <= 0 { break }
            }
            #expect(read == expected)
            #expect(stream.streamStatus == .atEnd)
            #expect(stream.read(&buffer, maxLength: buffer.count) == 0)
            #expect(stream.streamError == nil)
            stream.close()
            #expect(stream.streamStatus == .closed && !stream.hasBytesAvailable)
        }
    }

    @Test func shortLongAndMissingSourcesFailWithTypedErrors() throws {
        let short = try MultipartPart(
            name: "short", length: 100, makeStream: { GzipMultipartGeneratedStream(length: 42) })
        #expect(throws: MultipartError.sourceLengthMismatch(field: "short", declared: 100, delivered: 42)) {
            try MultipartBody(parts: [short]).data()
        }
        let long = try MultipartPart(name: "long", length: 10, makeStream: { GzipMultipartGeneratedStream(length: 11) })
        #expect(throws: MultipartError.sourceLengthMismatch(field: "long", declared: 10, delivered: 11)) {
            try MultipartBody(parts: [long]).data()
        }
        let gone = try MultipartPart(name: "gone", length: 1, makeStream: { nil })
        let stream = try MultipartBody(parts: [gone]).makeInputStream()
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 1024)
        #expect(stream.read(&buffer, maxLength: buffer.count) == -1)
        #expect(stream.streamStatus == .error && !stream.hasBytesAvailable)
        #expect(
            stream.streamError as? MultipartError == .sourceFailed(field: "gone", reason: "makeStream returned nil"))
    }

    /// Resident set size in bytes, from /proc/self/status.
    private func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib * 1024
    }

    @Test func streamsA256MiBPartWithConstantMemory() throws {
        let length: Int64 = 256 * 1024 * 1024
        let part = try MultipartPart(
            name: "export", filename: "export.bin", contentType: "application/octet-stream", length: length,
            makeStream: { GzipMultipartGeneratedStream(length: length) })
        let body = try MultipartBody(parts: [part], boundary: boundary)
        let head =
            "--B0undary-42\r\nContent-Disposition: form-data; name=\"export\"; filename=\"export.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        let tail = "\r\n--B0undary-42--\r\n"
        #expect(body.contentLength == Int64(head.utf8.count) + length + Int64(tail.utf8.count))

        // The expected CRC-32 of the content, from a second generator (never materialised either).
        let bufferSize = 256 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 1)
        defer { buffer.deallocate() }
        let pointer = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let reference = GzipMultipartGeneratedStream(length: length)
        reference.open()
        var expectedCRC: UInt = 0
        while case let count = reference.read(pointer, maxLength: bufferSize), count > 0 {
            expectedCRC = GzipMultipartZlib.crc32(expectedCRC, UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }

        let baseline = residentBytes()
        var peak = baseline
        let stream = body.makeInputStream()
        stream.open()
        defer { stream.close() }
        var total: Int64 = 0
        var prefix = Data()
        var suffix: [UInt8] = []
        var contentCRC: UInt = 0
        let contentRange = Int64(head.utf8.count)..<Int64(head.utf8.count) + length
        var reads = 0
        while stream.hasBytesAvailable {
            let count = stream.read(pointer, maxLength: bufferSize)
            #expect(count >= 0)
            guard count > 0 else { break }
            let range = total..<total + Int64(count)
            let overlap = range.clamped(to: contentRange)
            if !overlap.isEmpty {
                let slice = buffer[Int(overlap.lowerBound - total)..<Int(overlap.upperBound - total)]
                contentCRC = GzipMultipartZlib.crc32(contentCRC, UnsafeRawBufferPointer(rebasing: slice))
            }
            if prefix.count < head.utf8.count { prefix.append(pointer, count: min(count, head.utf8.count)) }
            // Keep only the last 64 bytes, in a fresh array (a `Data` slice would keep the whole storage alive).
            suffix = Array((suffix + UnsafeBufferPointer(start: pointer, count: count).suffix(64)).suffix(64))
            total += Int64(count)
            reads += 1
            if reads % 128 == 0 { peak = max(peak, residentBytes()) }
        }
        #expect(stream.streamStatus == .atEnd)
        #expect(total == body.contentLength)
        #expect(contentCRC == expectedCRC)
        #expect(String(decoding: prefix.prefix(head.utf8.count), as: UTF8.self) == head)
        #expect(String(decoding: suffix.suffix(tail.utf8.count), as: UTF8.self) == tail)
        // Reading 256 MiB must not grow the process by anything like 256 MiB (other tests run alongside).
        #expect(peak - baseline < 96 * 1024 * 1024, "RSS grew by \(peak - baseline) bytes")
    }
}
