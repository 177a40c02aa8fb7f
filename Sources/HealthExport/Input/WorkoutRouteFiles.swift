import Foundation

/// The route files (`workout-routes/*.gpx`) of an export — in the zip, in the unpacked folder, or beside a bare
/// export.xml — found by the path a `WorkoutRoute`'s `FileReference` names (`/workout-routes/route_….gpx`,
/// relative to the export folder). The zip's directory is read once; each file is read whole when asked for.
struct WorkoutRouteFiles {
    private enum Location {
        /// Route entries of the zip, by their path from the export folder (`workout-routes/route_….gpx`): more
        /// than one for a path the zip holds twice (one name twice, or in two folders).
        case zip(ZipArchive, [String: [ZipArchive.Entry]])
        /// The export folder.
        case folder(String)
    }

    private let location: Location

    /// The largest file read: a day-long route at one point a second is about 25 MB.
    static let sizeLimit: Int64 = 64 << 20

    /// The route files of the export at `path` (see ``ExportInput``).
    ///
    /// - Throws: ``HealthExportError`` when the zip cannot be read.
    init(exportAt path: String) throws(HealthExportError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound(path: path)
        }
        if isDirectory.boolValue {
            location = .folder(try ExportFolder.root(of: path).path)
            return
        }
        let file = try ReadOnlyFile(path: path)
        guard try ZipArchive.looksLikeZip(file) else {
            location = .folder((path as NSString).deletingLastPathComponent)
            return
        }
        let archive = try ZipArchive(file: file)
        var entries: [String: [ZipArchive.Entry]] = [:]
        for entry in archive.entries {
            guard let range = entry.name.range(of: "workout-routes/") else { continue }
            let start = range.lowerBound
            guard start == entry.name.startIndex || entry.name[entry.name.index(before: start)] == "/" else { continue }
            entries[String(entry.name[start...]), default: []].append(entry)
        }
        location = .zip(archive, entries)
    }

    /// What the export holds under a route file's path.
    enum Contents {
        /// The file's bytes.
        case bytes([UInt8])
        /// No such file.
        case missing
        /// The zip holds the path more than once (these entries): none is read, as which one is meant cannot be
        /// told.
        case ambiguous([String])
    }

    /// The bytes of the file `reference` names, or why there are none.
    ///
    /// - Parameter reference: A `FileReference` path; one that leaves the export folder (`..`) is never found.
    /// - Throws: ``HealthExportError`` when the file is there but cannot be read (a damaged zip entry, a failed
    ///   read), or ``HealthExportError/io(path:operation:errno:)`` with `EFBIG` past ``sizeLimit``.
    func contents(of reference: String) throws(HealthExportError) -> Contents {
        let relative = reference.split(separator: "/").filter { !$0.isEmpty && $0 != "." }
        guard !relative.isEmpty, !relative.contains("..") else { return .missing }
        let path = relative.joined(separator: "/")
        let source: any ExportByteSource
        switch location {
        case .zip(let archive, let entries):
            guard let found = entries[path] else { return .missing }
            guard found.count == 1 else { return .ambiguous(found.map(\.name)) }
            source = try ZipEntrySource(archive: archive, entry: found[0])
        case .folder(let root):
            let full = (root as NSString).appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: full) else { return .missing }
            source = FileByteSource(file: try ReadOnlyFile(path: full))
        }
        guard let bytes = try ElectrocardiogramFile.readWhole(source, limit: Self.sizeLimit) else {
            throw .io(path: reference, operation: "read (larger than \(Self.sizeLimit >> 20) MiB)", errno: EFBIG)
        }
        return .bytes(bytes)
    }
}
