/// Why an import stopped. Each case names where in the file the problem is, so a person can look at the bytes;
/// what was imported before the failure stays committed (whole batches).
public enum HealthExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing exists at the path.
    case notFound(path: String)
    /// A file call failed; `errno` as the C library reported it.
    case io(path: String, operation: String, errno: Int32)
    /// The path holds neither `export.xml`, an `apple_health_export/` folder nor a zip that contains one.
    case missingExportXML(path: String)
    /// The zip holds more than one `export.xml` (`entries`, in the zip's order), or the folder holds one itself and
    /// one in its `apple_health_export/`: which one is the export cannot be told, so none is read.
    case ambiguousExportXML(path: String, entries: [String])
    /// The zip's structure is damaged at `offset` (a byte offset into the zip file).
    case damagedZip(offset: Int64, problem: String)
    /// A zip entry uses a compression method other than stored (0) or deflate (8).
    case unsupportedCompression(entry: String, method: Int)
    /// The file ends inside an element, a tag or the DTD: `offset` is the byte offset into export.xml where it
    /// ended, `line` its 1-based line.
    case truncated(offset: Int64, line: Int)
    /// The file does not start like XML (or its root is not `HealthData`).
    case notXML(offset: Int64, problem: String)
    /// The import was started before: each ``HealthExportImport`` runs once.
    case alreadyStarted(path: String)
    /// The XML breaks a rule at `offset` (byte offset into export.xml), `line` (1-based).
    case malformedXML(offset: Int64, line: Int, problem: String)

    /// The problem in words, with the path or byte offset.
    public var description: String {
        switch self {
        case .notFound(let path): "no file or folder at \(path)"
        case .io(let path, let operation, let errno): "\(operation) failed for \(path) (errno \(errno))"
        case .missingExportXML(let path): "\(path) holds no export.xml"
        case .ambiguousExportXML(let path, let entries):
            "\(path) holds \(entries.count) export.xml files (\(entries.joined(separator: ", ")));"
                + " unpack the one to import and give its folder"
        case .damagedZip(let offset, let problem): "damaged zip at byte \(offset): \(problem)"
        case .unsupportedCompression(let entry, let method):
            "zip entry \(entry) uses compression method \(method); only stored (0) and deflate (8) are read"
        case .truncated(let offset, let line): "export.xml ends early at byte \(offset) (line \(line))"
        case .notXML(let offset, let problem): "not a Health export at byte \(offset): \(problem)"
        case .alreadyStarted(let path): "the import of \(path) was started before; make a new one to run it again"
        case .malformedXML(let offset, let line, let problem):
            "malformed XML at byte \(offset) (line \(line)): \(problem)"
        }
    }
}
