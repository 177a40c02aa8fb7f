/// The first step of a repairing opening of a ``SegmentedHealthStoreBackend``: every segment in use in the
/// directory, of every type, read whole and checked (``SegmentSalvage``), and each damaged one repaired. Logs, the
/// history and the permission answers are not repaired: damage in them still stops opening.
enum SegmentRepairPass {
    /// Each damaged segment, with what a full read of it found, changing nothing; by file name.
    /// - Throws: The file system's error, or a segment list that does not fit together
    ///   (``SegmentDirectoryScan``).
    /// - Complexity: O(store size): every block of every segment is read once.
    static func assess(
        directory: FileSystemPath, fileSystem: any StoreFileSystem
    ) throws(FileStoreError) -> [(salvage: SegmentSalvage, finding: SegmentSalvage.Finding)] {
        var types: Set<HealthObjectType> = []
        for name in try fileSystem.contentsOfDirectory(at: directory) {
            if let type = SegmentedBackendState.segmentType(in: name) { types.insert(type) }
        }
        var found: [(salvage: SegmentSalvage, finding: SegmentSalvage.Finding)] = []
        for type in types.sorted(by: { $0.identifier < $1.identifier }) {
            let scan = try SegmentDirectoryScan(type: type, directory: directory, fileSystem: fileSystem)
            for name in scan.current {
                let salvage = SegmentSalvage(name: name, directory: directory, fileSystem: fileSystem)
                if let finding = try salvage.assess() { found.append((salvage, finding)) }
            }
        }
        return found
    }

    /// Repairs every damaged segment ``assess(directory:fileSystem:)`` finds.
    /// - Returns: A report per damaged segment, and where each damaged file was kept (relative to `directory`).
    static func run(
        directory: FileSystemPath, fileSystem: any StoreFileSystem
    ) throws(FileStoreError) -> (repairs: [FileStoreRepair], movedAside: [String]) {
        var repairs: [FileStoreRepair] = []
        var moved: [String] = []
        for (salvage, finding) in try assess(directory: directory, fileSystem: fileSystem) {
            moved.append(try salvage.repair(finding))
            repairs.append(finding.repair)
        }
        return (repairs, moved)
    }
}
