import FlowKit
import Foundation
import HealthFlow
import ProductSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real `kill -9`: a child process saves samples into a `FileHealthStore` and prints each acknowledged one;
/// the test kills it mid-stream, reopens the store, and finds every acknowledged sample. Bounded: a few
/// rounds, each stopped after a fixed number of acknowledgements (or a deadline, so it never hangs).
@Suite struct DurableStoreKillTests {
    static var productsDirectory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return Bundle.main.bundleURL
    }

    static let app = HealthAppConfiguration(
        bundleIdentifier: "dev.healthflow.probe", name: "Probe", healthShareUsageDescription: "reads",
        healthUpdateUsageDescription: "writes")

    /// Starts the probe, reads acknowledged UUIDs until `count` arrived, then SIGKILLs it.
    static func runProbeAndKill(in directory: URL, after count: Int) throws -> [UUID] {
        let child = try ChildProcess.launch(
            productsDirectory.appendingPathComponent("DurableStoreProbe"), arguments: [directory.path], output: .pipe,
            errors: .discarded)
        var acknowledged: [UUID] = []
        var buffer = Data()
        let deadline = Date().addingTimeInterval(60)
        while acknowledged.count < count && Date() < deadline, let reader = child.output {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if let uuid = UUID(uuidString: line) { acknowledged.append(uuid) }
            }
        }
        child.signal(SIGKILL)
        _ = child.wait()
        return acknowledged
    }

    @Test func everyAcknowledgedSaveSurvivesSigkill() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("healthflow-kill-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var acknowledged: Set<UUID> = []
        for round in 1...3 {
            let printed = try await onOwnThread { try Self.runProbeAndKill(in: directory, after: 40 * round) }
            #expect(printed.count >= 40 * round, "round \(round): the probe stopped early")
            acknowledged.formUnion(printed)
            let store = try FileHealthStore(directory: directory, configuration: Self.app)
            let stored = try await store.samples(of: .stepCount)
            let storedIDs = Set(stored.map(\.uuid))
            #expect(acknowledged.isSubset(of: storedIDs), "round \(round): acknowledged saves were lost")
            store.close()
        }
    }
}
