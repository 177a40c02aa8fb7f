import ExampleSupport
import Foundation
import HealthFlow
import Testing

/// Files an interrupted run left behind: the next run removes the program's own — only names it generates — and
/// names each one it removed; anything else in the folder stays, byte for byte.
@Suite struct LeftoverCommandTests {
    /// A fresh folder holding a store (`data`) of `format` with one sample, made through the library, so the
    /// command neither seeds a year nor sends more than one small batch.
    static func folderWithSmallStore(_ format: DurableStoreFormat = .journal) throws -> (folder: URL, data: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-leftovers-\(UUID().uuidString)")
        let data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let end = Date(timeIntervalSince1970: 1_760_000_000)
        let steps = try HealthQuantitySample(
            type: .stepCount, quantity: HealthQuantity(unit: try HealthUnit(from: "count"), doubleValue: 12),
            start: end - 60, end: end, source: ExampleContext.app.source)
        switch format {
        case .journal:
            let store = try FileHealthStore(directory: data, configuration: ExampleContext.app)
            defer { store.close() }
            try store.ingest([.quantity(steps)])
        case .segments:
            let backend = try SegmentedHealthStoreBackend(directory: FileSystemPath(data))
            defer { backend.close() }
            try BackedHealthStore(backend: backend, configuration: ExampleContext.app).ingest([.quantity(steps)])
            try backend.checkpoint()
        }
        return (folder, data)
    }

    static func create(_ names: [String], in folder: URL) -> [String: Data] {
        var contents: [String: Data] = [:]
        for (index, name) in names.enumerated() {
            contents[name] = Data("file \(index) of another program\n".utf8)
            #expect(
                FileManager.default.createFile(
                    atPath: folder.appendingPathComponent(name).path, contents: contents[name]))
        }
        return contents
    }

    /// A store's own leftovers, the names beside them that only look like its own, and what the warning says
    /// each removed file was left over from.
    struct Leftovers: Sendable, CustomStringConvertible {
        let format: DurableStoreFormat
        let ours: [String]
        let foreign: [String]
        let from: String
        var description: String { "\(format)" }
    }

    @Test(arguments: [
        Leftovers(
            format: .journal,
            ours: [".healthflow-journal-0000000000000001.hfj.tmp", ".healthflow-snapshot-0000000000000001.hfs.tmp"],
            foreign: [".healthflow-journal-+000000000000001.hfj.tmp", ".healthflow-snapshot-000000000000000F.hfs.tmp"],
            from: "an interrupted snapshot"),
        Leftovers(
            format: .segments,
            ours: [
                ".healthflow-segment-log-0000000000000003.hfj.tmp",
                ".healthflow-segment-stepCount-0000000000000002-0000000000000002.hfseg.tmp",
            ],
            foreign: [".healthflow-segment-log-3.hfj.tmp", ".healthflow-segment-stepCount.hfseg.tmp"],
            from: "an interrupted flush, merge or rewrite"),
    ])
    func theStoresOwnLeftoversAreRemovedAndEachIsNamedInAWarning(_ leftovers: Leftovers) async throws {
        let (folder, data) = try Self.folderWithSmallStore(leftovers.format)
        defer { try? FileManager.default.removeItem(at: folder) }
        let foreign = Self.create(leftovers.foreign, in: data)
        _ = Self.create(leftovers.ours, in: data)

        let outbox = folder.appendingPathComponent("outbox").path
        let run = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data.path)
        #expect(run.status == 0, "\(run.errors)")
        let warnings = run.output.split(separator: "\n").filter { $0.hasPrefix("warning: ") }.map(String.init)
        #expect(
            warnings == leftovers.ours.sorted().map { "warning: removed \($0), left over from \(leftovers.from)" },
            "\(run.output)")
        #expect(run.output.contains("sent 1 samples"), "\(run.output)")
        for name in leftovers.ours {
            #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent(name).path), "\(name)")
        }
        for (name, bytes) in foreign {
            #expect(try Data(contentsOf: data.appendingPathComponent(name)) == bytes, "\(name)")
        }
    }

    @Test func syncRemovesOnlyTheOutboxsOwnUnfinishedBatchesAndNamesEachOne() async throws {
        let (folder, data) = try Self.folderWithSmallStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outbox = folder.appendingPathComponent("outbox")
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        let upper = UUID().uuidString
        let lower = UUID().uuidString.lowercased()
        let ours = ".\(UUID().uuidString).multipart.tmp-\(UUID().uuidString)"
        let foreign = Self.create(
            [
                ".\(lower).multipart.tmp-\(lower)", ".\(upper).multipart.tmp-\(lower)",
                ".\(lower).multipart.tmp-\(upper)", ".\(upper).multipart.tmp-\(upper)~",
                ".\(upper).multipart.tmp-\(upper.replacingOccurrences(of: "-", with: ""))",
                ".\(upper)..multipart.tmp-\(upper)", ".\(upper).tmp-\(upper)", "\(upper).multipart.tmp-\(upper)",
            ], in: outbox)
        _ = Self.create([ours], in: outbox)

        let run = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox.path, "--data", data.path)
        #expect(run.status == 0, "\(run.errors)")
        let removals = run.output.split(separator: "\n").filter { $0.hasPrefix("removed ") }.map(String.init)
        #expect(
            removals == [
                "removed \(ours) from the outbox: a batch an interrupted sync left unfinished (it is sent again)"
            ],
            "\(run.output)")
        #expect(run.output.contains("sent 1 samples"), "\(run.output)")
        #expect(!FileManager.default.fileExists(atPath: outbox.appendingPathComponent(ours).path))
        for (name, bytes) in foreign {
            #expect(try Data(contentsOf: outbox.appendingPathComponent(name)) == bytes, "\(name)")
        }
    }
}
