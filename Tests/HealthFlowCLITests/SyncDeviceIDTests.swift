import Foundation
import HealthFlow
import Testing

@testable import healthflow

/// The sync's device ID file: made once, then read back; a file that cannot be read or holds no UUID stops the
/// sync and is kept as it is, since a new ID would make the receiver see a new device.
@Suite struct SyncDeviceIDTests {
    /// Runs `body` with a new empty folder, removed afterwards.
    static func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthflow-device-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    @Test func theSyncSendsEverySampleTypeTheBatchFormatCarriesHeartbeatSeriesIncluded() {
        #expect(SyncCommand.types.contains(.heartbeatSeries))
        #expect(SyncCommand.types == HealthObjectType.allTypes.filter(\.isSampleType))
    }

    @Test func theFirstSyncMakesAnIDThatLaterSyncsReadBack() throws {
        try Self.withFolder { folder in
            let path = FileSystemPath(folder.path)
            let made = try SyncCommand.deviceID(in: path)
            #expect(UUID(uuidString: made) != nil)
            #expect(try SyncCommand.deviceID(in: path) == made)
            let file = folder.appendingPathComponent("sync-device-id").path
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test func aFileHoldingNoUUIDStopsTheSyncAndIsKept() throws {
        try Self.withFolder { folder in
            let file = folder.appendingPathComponent("sync-device-id")
            let garbled = Data("3F2504E0-4F89-11D3-9A0C-0305E82C33\u{0}\n".utf8)
            try garbled.write(to: file)

            #expect {
                try SyncCommand.deviceID(in: FileSystemPath(folder.path))
            } throws: { error in
                "\(error)".contains("holds no UUID") && "\(error)".contains("sync-device-id")
            }
            #expect(try Data(contentsOf: file) == garbled)
        }
    }

    @Test func aDeviceIDFileThatCannotBeReadStopsTheSyncAndIsKept() throws {
        try Self.withFolder { folder in
            let file = folder.appendingPathComponent("sync-device-id")
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)

            #expect {
                try SyncCommand.deviceID(in: FileSystemPath(folder.path))
            } throws: { error in
                "\(error)".contains("cannot read the device ID file")
            }
            var isDirectory: ObjCBool = false
            #expect(
                FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        }
    }
}
