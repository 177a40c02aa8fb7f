import Foundation

/// One ECG CSV of an export: `electrocardiograms/*.csv` beside export.xml — in the zip, in the unpacked folder,
/// or beside a bare export.xml. Each is read whole when its turn comes (a 30-second recording is about 150 KB).
struct ElectrocardiogramFile {
    /// The file's path in the zip or the export folder, for reports (`…/electrocardiograms/ecg_2020-02-05.csv`).
    let name: String
    private let open: () throws(HealthExportError) -> any ExportByteSource

    /// The largest file read: far beyond any recording (a 30-second one at 512 Hz is about 150 KB).
    static let sizeLimit: Int64 = 64 << 20

    /// The ECG CSVs that go with the export at `path` (see ``ExportInput``), in name order.
    static func find(in path: String) throws(HealthExportError) -> [ElectrocardiogramFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound(path: path)
        }
        if isDirectory.boolValue {
            let root = try ExportFolder.root(of: path)
            return try files(besideExportIn: root.path, shownUnder: root.relative)
        }
        let file = try ReadOnlyFile(path: path)
        guard try ZipArchive.looksLikeZip(file) else {
            return try files(besideExportIn: (path as NSString).deletingLastPathComponent, shownUnder: "")
        }
        let archive = try ZipArchive(file: file)
        return archive.entries.filter(isElectrocardiogram).sorted { $0.name < $1.name }.map { entry in
            ElectrocardiogramFile(name: entry.name) { () throws(HealthExportError) in
                try ZipEntrySource(archive: archive, entry: entry)
            }
        }
    }

    /// Whether a zip entry is an ECG CSV: a `.csv` in a folder named `electrocardiograms`.
    private static func isElectrocardiogram(_ entry: ZipArchive.Entry) -> Bool {
        let components = entry.name.split(separator: "/")
        return components.count >= 2 && components[components.count - 2] == "electrocardiograms"
            && entry.name.lowercased().hasSuffix(".csv")
    }

    /// The `.csv` files in `root/electrocardiograms`, named as `prefix/electrocardiograms/file`: none when there
    /// is no such folder (an export without recordings).
    ///
    /// - Throws: ``HealthExportError/io(path:operation:errno:)`` when the folder is there but cannot be listed
    ///   (not a folder, no permission): its recordings are not skipped unseen.
    private static func files(
        besideExportIn root: String, shownUnder prefix: String
    ) throws(HealthExportError) -> [ElectrocardiogramFile] {
        let folder = (root as NSString).appendingPathComponent("electrocardiograms")
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            let code = ((error as? CocoaError)?.underlying as? POSIXError)?.code.rawValue ?? EIO
            if code == ENOENT { return [] }
            throw .io(path: folder, operation: "list", errno: code)
        }
        return names.filter { $0.lowercased().hasSuffix(".csv") }.sorted().map { name in
            let path = (folder as NSString).appendingPathComponent(name)
            let shown = (prefix.isEmpty ? "" : prefix + "/") + "electrocardiograms/" + name
            return ElectrocardiogramFile(name: shown) { () throws(HealthExportError) in
                FileByteSource(file: try ReadOnlyFile(path: path))
            }
        }
    }

    /// The file's bytes, or `nil` when it is larger than ``sizeLimit``.
    /// - Throws: ``HealthExportError`` when it cannot be read (a damaged zip entry, a failed read).
    func contents() throws(HealthExportError) -> [UInt8]? {
        try Self.readWhole(try open(), limit: Self.sizeLimit)
    }

    /// Every byte of `source`, or `nil` once more than `limit` bytes were read.
    static func readWhole(_ source: any ExportByteSource, limit: Int64) throws(HealthExportError) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(HealthExportError) in try source.read(into: buffer) }
            }.get()
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
            if Int64(bytes.count) > limit { return nil }
        }
    }
}
