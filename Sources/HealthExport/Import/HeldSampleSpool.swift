import Foundation
import HealthFlow

/// Samples set aside on disk until the end of the export — the top-level blood-pressure and nutrition
/// records, written only if no correlation holds them — so memory does not grow with their number. One JSON
/// sample a line in a private temporary file (mode 0600), removed when the spool is released.
final class HeldSampleSpool {
    private let path: String
    private let handle: FileHandle
    private let encoder = JSONEncoder()
    private var pending = Data()
    private(set) var count = 0

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("healthflow-import-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forUpdatingAtPath: path)
        else { throw HealthExportError.io(path: path, operation: "create", errno: errno) }
        self.handle = handle
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: path)
    }

    func append(_ sample: HealthSample) throws {
        pending.append(try encoder.encode(sample))
        pending.append(0x0A)
        count += 1
        if pending.count >= 1 << 20 { try writePending() }
    }

    /// Calls `body` with every sample in the order appended, reading the file in chunks.
    func forEach(_ body: (HealthSample) throws -> Void) throws {
        try writePending()
        try handle.seek(toOffset: 0)
        let decoder = JSONDecoder()
        var carry = Data()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            carry.append(chunk)
            var lineStart = carry.startIndex
            while let newline = carry[lineStart...].firstIndex(of: 0x0A) {
                try body(try decoder.decode(HealthSample.self, from: carry[lineStart..<newline]))
                lineStart = carry.index(after: newline)
            }
            carry = Data(carry[lineStart...])
        }
    }

    private func writePending() throws {
        guard !pending.isEmpty else { return }
        try handle.seekToEnd()
        try handle.write(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
    }
}
