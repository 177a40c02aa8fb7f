import Foundation

/// A ``SyncState`` as it is kept on disk, with the sequence number that orders the places it is kept in.
///
/// The state file and every pending batch file (``PendingBatchFile``) hold one: the document's keys are the
/// state's own (``SyncState/init(from:)``) plus `sequence`. A pending file's sequence is one more than the state it
/// was made from; the state file takes the sequence of the newest pending file it replaces. So the true state is
/// the pending file with the highest sequence above the state file's, or else the state file. A file without
/// `sequence` (written before it existed) has sequence 0.
struct StoredSyncState: Equatable {
    var state: SyncState
    var sequence: UInt64
}

extension StoredSyncState: Codable {
    private enum CodingKeys: String, CodingKey {
        case sequence
    }

    init(from decoder: any Decoder) throws {
        state = try SyncState(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sequence = try container.decodeIfPresent(UInt64.self, forKey: .sequence) ?? 0
    }

    func encode(to encoder: any Encoder) throws {
        try state.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
    }

    /// The document's bytes: JSON with sorted keys.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }
}
