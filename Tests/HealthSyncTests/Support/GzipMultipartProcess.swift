import Foundation
import ProductSupport

/// Runs a command from `PATH` with stdout and stderr sent to files (no pipe can fill up and deadlock).
struct GzipMultipartProcessResult {
    var status: Int32
    var stdout: Data
    var stderr: String
}

enum GzipMultipartSupport {
    /// A fresh private directory under the system temporary directory; remove it with `removeItem`.
    static func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthsync-gzip-multipart-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `command arguments…` via `/usr/bin/env`, in `directory`, and waits for it to exit.
    static func run(_ command: String, _ arguments: [String], in directory: URL) throws
        -> GzipMultipartProcessResult
    {
        let id = UUID().uuidString
        let outURL = directory.appendingPathComponent("stdout-\(id)")
        let errURL = directory.appendingPathComponent("stderr-\(id)")
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let finished = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: [command] + arguments, directory: directory,
            output: .file(outURL), errors: .file(errURL))
        let stdout = try Data(contentsOf: outURL)
        let stderr = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        return GzipMultipartProcessResult(status: finished.termination.status, stdout: stdout, stderr: stderr)
    }
}

/// SplitMix64: a tiny seeded generator so "random" test data and boundaries are reproducible.
struct GzipMultipartSeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Deterministic JSON-like text, roughly `byteCount` bytes: lines of sample records.
func gzipMultipartJSONLike(byteCount: Int, seed: UInt64 = 42) -> Data {
    var generator = GzipMultipartSeededGenerator(seed: seed)
    let types = ["stepCount", "heartRate", "bodyMass", "activeEnergyBurned", "bloodGlucose"]
    var text = "["
    text.reserveCapacity(byteCount + 256)
    while text.utf8.count < byteCount {
        let type = types[Int(generator.next() % UInt64(types.count))]
        let value = generator.next() % 100_000
        let minute = generator.next() % 60
        let id = String(generator.next(), radix: 16)
        text += #"{"type":"\#(type)","value":\#(value),"unit":"count","start":"2026-11-23T08:\#(minute):00Z","#
        text += #""uuid":"\#(id)"},"# + "\n"
    }
    text += "{}]"
    return Data(text.utf8)
}
