/// What a directory holds of one type's segments, by name alone (no file is opened): the segments in use, oldest
/// first, and the leftovers to remove — temporary segment files of the type, and segments a compacted segment
/// covers (``SegmentName/covers(_:)``). Names ``SegmentName`` does not generate for the type are not looked at.
struct SegmentDirectoryScan {
    /// The segments in use, by the numbers they cover, oldest first; no two overlap.
    let current: [SegmentName]
    /// File names to remove once the current segments have opened.
    let leftovers: [String]

    /// - Throws: `FileStoreError.corruptFile(…, .inconsistent)` naming a segment whose numbers overlap another's
    ///   without either covering the other (no flush or compaction makes that), or the file system's error.
    /// - Complexity: O(s²) for s segments.
    init(type: HealthObjectType, directory: FileSystemPath, fileSystem: any StoreFileSystem) throws(FileStoreError) {
        var segments: [SegmentName] = []
        var leftovers: [String] = []
        for name in try fileSystem.contentsOfDirectory(at: directory) {
            switch SegmentName.classify(name, for: type) {
            case .segment(let segment): segments.append(segment)
            case .temporary: leftovers.append(name)
            case .other: break
            }
        }
        segments.sort { ($0.last, $0.first) < ($1.last, $1.first) }
        var current: [SegmentName] = []
        for segment in segments {
            if segments.contains(where: { $0 != segment && $0.covers(segment) }) {
                leftovers.append(segment.fileName)
                continue
            }
            if let overlapping = current.last, overlapping.last >= segment.first {
                throw .corruptFile(
                    name: segment.fileName, offset: 0,
                    problem: .inconsistent("its segment numbers overlap those of \(overlapping.fileName)"))
            }
            current.append(segment)
        }
        self.current = current
        self.leftovers = leftovers.sorted()
    }
}
