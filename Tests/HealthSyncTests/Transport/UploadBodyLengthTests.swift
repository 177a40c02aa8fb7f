import Foundation
import HealthFlow
import Testing

@testable import HealthSync

/// A body's declared length is checked before memory is taken for it: a file or stream larger than declared (a
/// damaged or wrong length) fails with a typed error, never with an allocation as large as the file.
@Suite struct UploadBodyLengthTests {
    /// 32 GiB: more than this machine's memory, so reserving it would abort the process.
    static let huge: Int64 = 34_359_738_368

    /// A sparse file of ``huge`` bytes (no block written) named `name` in `folder`.
    static func sparseFile(_ name: String, in folder: SyncTempFolder) throws -> URL {
        let url = folder.url.appendingPathComponent(name)
        try Data().write(to: url)
        try #require(truncate(url.path, off_t(huge)) == 0)
        return url
    }

    @Test func aWholeBodyFileFarLargerThanItsContentLengthFailsWithLengthMismatchBeforeReading() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let url = try Self.sparseFile("body.multipart", in: folder)
        let request = UploadRequest(
            batchID: SyncFixtures.batchID, contentType: "multipart/form-data; boundary=x", contentLength: 100,
            fileExtension: "multipart", body: .file(at: url))
        #expect(throws: UploadError.lengthMismatch(expected: 100, actual: Self.huge)) {
            _ = try HTTPTransport.wholeBody(of: request)
        }
    }

    @Test func aStateFileOf32GiBIsReportedCorruptWithoutReadingIt() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let url = try Self.sparseFile("sync-state.json", in: folder)
        #expect(
            throws: SyncStateError.corrupt(
                path: url.path, reason: "\(Self.huge) bytes, more than a state file holds (16777216)")
        ) { _ = try AnchorStore(fileURL: url).load() }
    }

    @Test func aWholeBodyStreamLongerThanItsContentLengthStopsOneBytePastIt() throws {
        let request = UploadRequest(
            batchID: SyncFixtures.batchID, contentType: "application/json", contentLength: 1_000,
            body: .stream { InputStream(data: Data(count: 3 << 20)) })
        #expect(throws: UploadError.lengthMismatch(expected: 1_000, actual: 1_001)) {
            _ = try HTTPTransport.wholeBody(of: request)
        }
        let short = UploadRequest(
            batchID: SyncFixtures.batchID, contentType: "application/json", contentLength: Self.huge,
            body: .stream { InputStream(data: Data(count: 10)) })
        #expect(throws: UploadError.lengthMismatch(expected: Self.huge, actual: 10)) {
            _ = try HTTPTransport.wholeBody(of: short)
        }
        let negative = UploadRequest(
            batchID: SyncFixtures.batchID, contentType: "application/json", contentLength: -1, body: .data(Data()))
        #expect(throws: UploadError.lengthMismatch(expected: -1, actual: 0)) {
            _ = try HTTPTransport.wholeBody(of: negative)
        }
    }

    @Test func aMultipartBodyInMemoryDoesNotReserveAStreamedPartsDeclaredLength() throws {
        let part = try MultipartPart(
            name: "batch", filename: "b.json.gz", contentType: "application/gzip", length: Self.huge,
            makeStream: { InputStream(data: Data(count: 10)) })
        let body = try MultipartBody(parts: [part])
        #expect(throws: MultipartError.sourceLengthMismatch(field: "batch", declared: Self.huge, delivered: 10)) {
            _ = try body.data()
        }
    }
}
