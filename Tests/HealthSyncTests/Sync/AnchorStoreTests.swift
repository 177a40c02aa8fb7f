import Foundation
import HealthFlow
import HealthSync
import Testing

@Suite struct AnchorStoreTests {
    static func anchor(_ sequence: UInt64) throws -> HealthQueryAnchor {
        try JSONDecoder().decode(HealthQueryAnchor.self, from: Data("\(sequence)".utf8))
    }

    @Test func loadsAFreshStateWhenTheFileIsMissing() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let store = AnchorStore(fileURL: folder.url.appendingPathComponent("sync-state.json"))
        #expect(try store.load() == SyncState())
    }

    @Test func roundTripsAnchorsAndThePendingBatch() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let store = AnchorStore(fileURL: folder.url.appendingPathComponent("sync-state.json"))
        var state = SyncState()
        state.setAnchor(try Self.anchor(42), for: .heartRate)
        state.setAnchor(try Self.anchor(7), for: .stepCount)
        state.pendingBatchID = SyncFixtures.batchID
        try store.save(state)
        let loaded = try store.load()
        #expect(loaded == state)
        #expect(loaded.anchor(for: .heartRate) == (try Self.anchor(42)))
        #expect(loaded.anchor(for: .bodyMass) == nil)

        state.setAnchor(try Self.anchor(43), for: .heartRate)
        state.pendingBatchID = nil
        try store.save(state)
        #expect(try store.load() == state)
        #expect(try folder.names() == ["sync-state.json"])
    }

    @Test func roundTripsAPendingBatchAndReadsOlderFilesWithoutOne() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("sync-state.json")
        let store = AnchorStore(fileURL: url)
        let pending = PendingBatch(
            batchID: SyncFixtures.batchID, bodyFileName: "sync-state.json.pending-x.multipart", bodyLength: 12,
            contentType: "multipart/form-data; boundary=b", endAnchors: ["heartRate": try Self.anchor(9)],
            samples: ["heartRate": 3])
        var state = SyncState(anchors: ["heartRate": try Self.anchor(4)], pending: pending)
        #expect(state.pendingBatchID == SyncFixtures.batchID)
        try store.save(state)
        #expect(try store.load() == state)
        state.commitPending()
        #expect(state == SyncState(anchors: ["heartRate": try Self.anchor(9)]))

        let id = UUID()
        try Data(#"{"anchors":{"heartRate":5},"formatVersion":1,"pendingBatchID":"\#(id.uuidString)"}"#.utf8)
            .write(to: url)
        #expect(try store.load() == SyncState(anchors: ["heartRate": try Self.anchor(5)], pendingBatchID: id))
    }

    @Test func createsTheStateFileWithMode0600() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("sync-state.json")
        try AnchorStore(fileURL: url).save(SyncState(pendingBatchID: SyncFixtures.batchID))
        #expect(try folder.permissions(of: url) == 0o600)
    }

    @Test func ignoresAndRemovesATempFileLeftByAnInterruptedSave() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("sync-state.json")
        let store = AnchorStore(fileURL: url)
        let saved = SyncState(anchors: ["heartRate": try Self.anchor(5)])
        try store.save(saved)
        // A crash between writing the temp file and renaming it leaves a half-written temp beside the state.
        let leftover = folder.url.appendingPathComponent(".sync-state.json.tmp-" + UUID().uuidString)
        try Data(#"{"formatVersion":1,"anch"#.utf8).write(to: leftover)
        #expect(try store.load() == saved)
        #expect(try folder.names() == ["sync-state.json"])
    }

    /// Only the temp names a save generates are removed: a file whose name merely starts the same way stays.
    @Test func loadingKeepsFilesThatOnlyLookLikeATempFileOfASave() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("sync-state.json")
        let store = AnchorStore(fileURL: url)
        try store.save(SyncState(anchors: ["heartRate": try Self.anchor(5)]))
        let ours = ".sync-state.json.tmp-" + UUID().uuidString
        let foreign = [
            ".sync-state.json.tmp-notes", ".sync-state.json.tmp-" + UUID().uuidString.lowercased(),
            ".sync-state.json.tmp-\(UUID().uuidString).bak",
        ]
        for name in [ours] + foreign {
            try Data(name.utf8).write(to: folder.url.appendingPathComponent(name))
        }
        _ = try store.load()
        #expect(try folder.names().sorted() == (foreign + ["sync-state.json"]).sorted())
    }

    @Test func reportsACorruptFileInsteadOfResetting() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("sync-state.json")
        let store = AnchorStore(fileURL: url)
        for corrupt in ["", "{", "[]", #"{"formatVersion":1}"#, #"{"formatVersion":1,"anchors":{"heartRate":"x"}}"#] {
            try Data(corrupt.utf8).write(to: url)
            #expect {
                try store.load()
            } throws: { error in
                guard case .corrupt(let path, _) = error as? SyncStateError else { return false }
                return path == url.path
            }
            // The corrupt file is left for inspection, not replaced.
            #expect(try Data(contentsOf: url) == Data(corrupt.utf8))
        }
    }

    @Test func reportsANewerFormatVersion() throws {
        let folder = try SyncTempFolder()
        defer { folder.remove() }
        let url = folder.url.appendingPathComponent("sync-state.json")
        try Data(#"{"formatVersion":9,"anchors":{}}"#.utf8).write(to: url)
        #expect(throws: SyncStateError.unsupportedVersion(path: url.path, version: 9)) {
            try AnchorStore(fileURL: url).load()
        }
    }

    @Test func reportsAnUnwritableFolderWithATypedError() throws {
        let url = URL(fileURLWithPath: "/nonexistent-healthsync-\(UUID().uuidString)/sync-state.json")
        #expect {
            try AnchorStore(fileURL: url).save(SyncState())
        } throws: { error in
            guard case .io(let operation, _, _) = error as? SyncStateError else { return false }
            return operation == "open"
        }
    }
}
