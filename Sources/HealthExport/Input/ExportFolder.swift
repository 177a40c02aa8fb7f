import Foundation

/// Where an unpacked export keeps export.xml and the folders beside it: the folder the person named, or its
/// `apple_health_export/` (what unzipping the Health app's export.zip makes). One rule for the export, its ECG CSVs
/// and its route files, so they never come from two different exports.
enum ExportFolder {
    /// The two places export.xml may be, relative to the folder given.
    static let candidates = ["", "apple_health_export"]

    /// The folder holding export.xml in `path` (a folder), with its name relative to `path` (`""` for `path`
    /// itself).
    /// - Throws: ``HealthExportError/missingExportXML(path:)`` when neither place holds one,
    ///   ``HealthExportError/ambiguousExportXML(path:entries:)`` when both do: which export the person meant is
    ///   not for the importer to guess.
    static func root(of path: String) throws(HealthExportError) -> (path: String, relative: String) {
        let found = candidates.filter { candidate in
            let root = candidate.isEmpty ? path : (path as NSString).appendingPathComponent(candidate)
            return FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent("export.xml"))
        }
        guard let relative = found.first else { throw .missingExportXML(path: path) }
        guard found.count == 1 else {
            throw .ambiguousExportXML(
                path: path, entries: found.map { $0.isEmpty ? "export.xml" : $0 + "/export.xml" })
        }
        return (relative.isEmpty ? path : (path as NSString).appendingPathComponent(relative), relative)
    }
}
