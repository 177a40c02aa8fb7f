/// The file in which a ``SegmentedHealthStoreBackend`` keeps the person's answers to permission sheets, per app
/// (``HealthAuthorizationStoreBackend``). Answers change rarely, so each change rewrites the whole file
/// (``StoreFileSystem/replaceFile(named:in:fill:)``): a crash leaves the old answers or the new ones.
///
/// ```text
/// file    = magic:8 payload crc:u32                    (crc over the payload, little-endian)
/// payload = apps:count (app:str share:answers read:answers)*       (apps and types sorted by their names)
/// answers = count:varint (type:str allowed:u8)*
/// ```
enum SegmentAuthorization {
    static let fileName = "segments-authorization.hfa"
    static let magic: [UInt8] = Array("HFAUTH01".utf8)

    /// The answers kept in `directory`, by app; none when there is no file.
    /// - Throws: ``FileStoreError/corruptFile(name:offset:problem:)`` for a file that is not such answers or whose
    ///   checksum does not match (it is left as it is); the file system's error.
    /// - Parameter names: The names in `directory`, as opening the backend listed them.
    static func read(
        in directory: FileSystemPath, names: [String], fileSystem: any StoreFileSystem
    ) throws(FileStoreError) -> [String: HealthAuthorizationAnswers] {
        guard names.contains(fileName) else { return [:] }
        let bytes = try fileSystem.readFile(at: directory.appending(fileName))
        guard bytes.count >= magic.count + 4, Array(bytes[0..<magic.count]) == magic else {
            throw .corruptFile(name: fileName, offset: 0, problem: .notAStoreFile)
        }
        let end = bytes.count - 4
        let stored = bytes.withUnsafeBytes {
            UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: end, as: UInt32.self))
        }
        guard CRC32.checksum(bytes, in: magic.count..<end) == stored else {
            throw .corruptFile(name: fileName, offset: magic.count, problem: .payloadChecksumMismatch)
        }
        do throws(BinaryReader.Failure) {
            var reader = BinaryReader(bytes, range: magic.count..<end)
            var apps: [String: HealthAuthorizationAnswers] = [:]
            for _ in 0..<(try reader.count()) {
                let app = try reader.string()
                apps[app] = HealthAuthorizationAnswers(
                    share: try answers(from: &reader), read: try answers(from: &reader))
            }
            try reader.expectEnd()
            return apps
        } catch {
            throw .corruptFile(name: fileName, offset: magic.count, problem: .undecodable(error.reason))
        }
    }

    /// Writes `apps` as the file in `directory`, in place of the one there.
    /// - Throws: The file system's error (``StoreFileSystem/replaceFile(named:in:fill:)``).
    static func write(
        _ apps: [String: HealthAuthorizationAnswers], in directory: FileSystemPath, fileSystem: any StoreFileSystem
    ) throws(FileStoreError) {
        var writer = BinaryWriter()
        writer.count(apps.count)
        for (app, answers) in apps.sorted(by: { $0.key < $1.key }) {
            writer.string(app)
            write(answers.share, into: &writer)
            write(answers.read, into: &writer)
        }
        let payload = writer.takeBytes()
        var bytes = magic + payload
        withUnsafeBytes(of: CRC32.checksum(payload).littleEndian) { bytes.append(contentsOf: $0) }
        try fileSystem.replaceFile(named: fileName, in: directory) { file throws(FileStoreError) in
            try file.write(bytes, at: 0)
        }
    }

    private static func write(_ answers: [HealthObjectType: Bool], into writer: inout BinaryWriter) {
        writer.count(answers.count)
        for (type, allowed) in answers.sorted(by: { $0.key.identifier < $1.key.identifier }) {
            writer.string(type.identifier)
            writer.byte(allowed ? 1 : 0)
        }
    }

    private static func answers(from reader: inout BinaryReader) throws(BinaryReader.Failure)
        -> [HealthObjectType: Bool]
    {
        var answers: [HealthObjectType: Bool] = [:]
        for _ in 0..<(try reader.count(minimumSize: 2)) {
            let identifier = try reader.string()
            guard let type = HealthObjectType(identifier: identifier) else {
                throw BinaryReader.Failure(reason: "unknown type \"\(identifier)\"")
            }
            let allowed = try reader.byte()
            guard allowed <= 1 else { throw BinaryReader.Failure(reason: "an answer is not 0 or 1") }
            answers[type] = allowed == 1
        }
        return answers
    }
}
