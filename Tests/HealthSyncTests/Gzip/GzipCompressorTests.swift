import Foundation
import HealthSync
import Testing

@Suite struct GzipCompressorTests {
    /// Compresses `input` in chunks cycling through `chunkSizes`, then finishes.
    private func compressInChunks(_ input: Data, level: Int, chunkSizes: [Int]) throws -> Data {
        let gzip = try GzipCompressor(level: level)
        var output = Data()
        var start = input.startIndex
        var turn = 0
        while start < input.endIndex {
            let end = min(start + chunkSizes[turn % chunkSizes.count], input.endIndex)
            output += try gzip.compress(input[start..<end])
            start = end
            turn += 1
        }
        output += try gzip.finish()
        return output
    }

    /// Checks `gz` with `gzip -t` and decompresses it with `gzip -dc`, in a private temp dir.
    private func systemGunzip(_ gz: Data) throws -> Data {
        let directory = try GzipMultipartSupport.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("body.gz")
        try gz.write(to: file)
        let test = try GzipMultipartSupport.run("gzip", ["-t", file.path], in: directory)
        #expect(test.status == 0, "gzip -t: \(test.stderr)")
        let decompressed = try GzipMultipartSupport.run("gzip", ["-dc", file.path], in: directory)
        #expect(decompressed.status == 0, "gzip -dc: \(decompressed.stderr)")
        return decompressed.stdout
    }

    @Test(arguments: [0, 1, 6, 9])
    func roundTripsThroughSystemGunzipAndZlibAtLevel(_ level: Int) throws {
        let input = gzipMultipartJSONLike(byteCount: 512 * 1024, seed: UInt64(level))
        let gz = try compressInChunks(input, level: level, chunkSizes: [1, 4093, 65_537, 13])
        #expect(Array(gz.prefix(3)) == [0x1F, 0x8B, 0x08])
        #expect(try systemGunzip(gz) == input)
        #expect(try GzipMultipartZlib.gunzip(gz) == input)
    }

    @Test func levelZeroStoresAndLevelNineIsSmallestOfTheFour() throws {
        let input = gzipMultipartJSONLike(byteCount: 256 * 1024)
        let sizes = try [0, 1, 6, 9].map { try input.gzipped(level: $0).count }
        #expect(sizes[0] > input.count)
        #expect(sizes[3] <= sizes[2] && sizes[2] <= sizes[1] && sizes[1] < sizes[0])
    }

    @Test func emptyInputMakesAValidEmptyMember() throws {
        let oneShot = try Data().gzipped()
        #expect(try GzipMultipartZlib.gunzip(oneShot).isEmpty)
        #expect(try systemGunzip(oneShot).isEmpty)

        let gzip = try GzipCompressor()
        let streamed = try gzip.compress(Data()) + gzip.compress([UInt8]()) + gzip.finish()
        #expect(try GzipMultipartZlib.gunzip(streamed).isEmpty)
    }

    @Test func tenMebibytesOfJSONInOddChunksRoundTrip() throws {
        let input = gzipMultipartJSONLike(byteCount: 10 * 1024 * 1024)
        #expect(input.count >= 10 * 1024 * 1024)
        let gz = try compressInChunks(input, level: 6, chunkSizes: [1, 3, 1021, 65_521, 1_048_573, 7, 262_147])
        #expect(gz.count < input.count / 3)
        #expect(try GzipMultipartZlib.gunzip(gz) == input)
        #expect(try systemGunzip(gz) == input)
    }

    @Test func rawBufferChunksMatchTheOneShotOutput() throws {
        let input = gzipMultipartJSONLike(byteCount: 100_000)
        let gzip = try GzipCompressor(level: 9)
        let streamed =
            try input.withUnsafeBytes { bytes throws(GzipError) in
                try gzip.compress(UnsafeRawBufferPointer(rebasing: bytes[..<50_000]))
                    + gzip.compress(UnsafeRawBufferPointer(rebasing: bytes[50_000...]))
            } + gzip.finish()
        #expect(try GzipMultipartZlib.gunzip(streamed) == input)
        #expect(streamed == (try input.gzipped(level: 9)))
    }

    @Test(arguments: [-1, 10, Int.max])
    func rejectsLevelOutsideZeroToNine(_ level: Int) {
        #expect(throws: GzipError.invalidLevel(level)) { try GzipCompressor(level: level) }
        #expect(throws: GzipError.invalidLevel(level)) { try Data("x".utf8).gzipped(level: level) }
        #expect(GzipError.invalidLevel(level).description.contains("\(level)"))
    }

    @Test func refusesInputAfterFinish() throws {
        let gzip = try GzipCompressor()
        _ = try gzip.finish()
        #expect(throws: GzipError.alreadyFinished) { try gzip.finish() }
        #expect(throws: GzipError.alreadyFinished) { try gzip.compress(Data("late".utf8)) }
        #expect(throws: GzipError.alreadyFinished) { try gzip.compress(Data()) }
    }

    @Test func namesZlibReturnCodes() {
        #expect(GzipError.ZlibCode(rawValue: -4) == .memoryError)
        #expect(GzipError.ZlibCode(rawValue: -2).description == "Z_STREAM_ERROR (-2)")
        #expect(GzipError.ZlibCode(rawValue: 42) == .other(42))
        let error = GzipError.zlib(function: "deflate", code: .dataError, message: "bad")
        #expect(error.description == "zlib deflate failed with Z_DATA_ERROR (-3): bad")
    }
}
