import Foundation

/// Finds export.xml in what the person gave: a zip (read in place) holding exactly one, a folder (`export.xml` in
/// it or in its `apple_health_export/`, not both: ``ExportFolder``), or the file itself.
enum ExportInput {
    static func open(_ path: String) throws(HealthExportError) -> any ExportByteSource {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound(path: path)
        }
        if isDirectory.boolValue {
            let root = try ExportFolder.root(of: path).path
            return FileByteSource(file: try ReadOnlyFile(path: (root as NSString).appendingPathComponent("export.xml")))
        }
        let file = try ReadOnlyFile(path: path)
        guard try ZipArchive.looksLikeZip(file) else { return FileByteSource(file: file) }
        let archive = try ZipArchive(file: file)
        let candidates = archive.entries(named: "export.xml")
        guard let entry = candidates.first else { throw .missingExportXML(path: path) }
        guard candidates.count == 1 else { throw .ambiguousExportXML(path: path, entries: candidates.map(\.name)) }
        return try ZipEntrySource(archive: archive, entry: entry)
    }
}
