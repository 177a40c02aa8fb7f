import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a ``FileHealthStore`` could not open its directory or make a change durable.
///
/// Opening throws these (typed); a save, delete or authorization whose journal record could not be written
/// and flushed reports one to its completion handler instead of success, and nothing changes. Every case
/// maps to HealthKit's `databaseInaccessible` code through ``code``. Descriptions name files, offsets and
/// system errors, never health values.
public enum FileStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with a damaged store file.
    public enum Damage: Hashable, Sendable, CustomStringConvertible {
        /// The file does not start with the store's magic bytes.
        case notAStoreFile
        /// A record header's checksum does not match (its length or kind cannot be trusted).
        case headerChecksumMismatch
        /// A record's payload does not match its checksum.
        case payloadChecksumMismatch
        /// The file ends inside a record where a record must be complete (a snapshot, or a journal that is
        /// followed by a later one).
        case truncated
        /// A record was written by a newer format version than this library reads.
        case unsupportedVersion(Int)
        /// A record with a valid checksum does not decode (or is of a kind not expected here).
        case undecodable(String)
        /// A file the store needs is missing (a journal a snapshot or a later journal needs).
        case missingFile
        /// A record decodes but cannot apply to the state rebuilt so far (a UUID saved twice, a deletion of
        /// something never saved, a snapshot that disagrees with itself).
        case inconsistent(String)

        /// A short explanation.
        public var description: String {
            switch self {
            case .notAStoreFile: "the file is not a HealthFlow store file"
            case .missingFile: "the file is missing"
            case .headerChecksumMismatch: "a record header's checksum does not match"
            case .payloadChecksumMismatch: "the record's checksum does not match"
            case .truncated: "the file ends inside a record"
            case .unsupportedVersion(let version): "record format version \(version) is newer than this library"
            case .undecodable(let reason): "the record does not decode: \(reason)"
            case .inconsistent(let reason): "the record does not fit the store: \(reason)"
            }
        }
    }

    /// Another ``FileHealthStore`` — in this process or another — has the directory open (it holds the
    /// directory's lock file).
    case alreadyOpen(path: String)
    /// The path exists but is not a directory.
    case notADirectory(path: String)
    /// A system call failed: `operation` (`"open"`, `"write"`, `"fsync"`, …) on `path`, with `errno`.
    case io(operation: String, path: String, errno: Int32)
    /// A store file is damaged at `offset` — anywhere in a snapshot, or in a journal before its last record
    /// (a damaged last record is a torn write: dropped and reported in ``FileStoreRecovery``).
    case corruptFile(name: String, offset: Int, problem: Damage)
    /// Journal generation `generation` is missing although the store needs it (later journals exist, or no
    /// snapshot covers it).
    case missingJournal(generation: UInt64)
    /// The directory belongs to another app: its files were written for `stored`, the store was opened as
    /// `configured`.
    case differentApp(stored: String, configured: String)
    /// The directory holds a store of another format (``DurableStoreFormat``), which this store does not open.
    case otherFormat(path: String, holds: DurableStoreFormat)
    /// One journal record would pass `limit` bytes (1 GiB). A change is split into records of about 1 MiB,
    /// each holding at least one sample, so only a single sample that large is refused.
    case recordTooLarge(bytes: Int, limit: Int)
    /// The store was closed; open it again to make changes.
    case closed
    /// An earlier write failed in a way the store could not undo (a failed flush, or a failed truncation of
    /// a partly written record), so it accepts no more changes; reopening recovers the acknowledged state.
    indirect case unusable(after: FileStoreError)

    /// HealthKit's code for storage failures: always `databaseInaccessible`.
    public var code: HealthStoreError.Code { .databaseInaccessible }

    /// A readable message naming the file or call at fault.
    public var description: String {
        switch self {
        case .alreadyOpen(let path):
            return "the health store at \(path) is already open (its lock file is held)"
        case .notADirectory(let path):
            return "\(path) exists and is not a directory"
        case .io(let operation, let path, let code):
            return "\(operation) failed for \(path): \(Self.systemMessage(code)) (errno \(code))"
        case .corruptFile(let name, let offset, let problem):
            return "store file \(name) is damaged at byte \(offset): \(problem)"
        case .missingJournal(let generation):
            return "journal generation \(generation) is missing from the store directory"
        case .differentApp(let stored, let configured):
            return "the store directory belongs to \(stored), not \(configured)"
        case .otherFormat(let path, let holds):
            return "\(path) holds a health store of another format (\(holds)), which this store does not open"
        case .recordTooLarge(let bytes, let limit):
            return
                "one sample of \(bytes) bytes exceeds the journal's record limit of \(limit) bytes (a change is split "
                + "into records, a sample is not)"
        case .closed:
            return "the health store is closed"
        case .unusable(let cause):
            return "the health store accepts no more changes after a storage failure (\(cause.description)); reopen it"
        }
    }

    private static func systemMessage(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }
}

extension FileStoreError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
