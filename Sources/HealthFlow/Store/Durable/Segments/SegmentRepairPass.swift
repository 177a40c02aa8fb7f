/// The first step of a repairing opening of a ``SegmentedHealthStoreBackend``: every segment in use in the
/// directory, of every type, read whole and checked (``SegmentSalvage``), and each damaged one repaired — after the
/// history is marked to restart (``SegmentHistory/markRestartPending(directory:fileSystem:)``), so rows lost are
/// never vouched for, even when a crash interrupts the repair. Logs, the history and the permission answers are
/// not repaired: damage in them still stops opening.
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
        let found = try assess(directory: directory, fileSystem: fileSystem)
        // Before any segment changes: a crash part way leaves the history to restart all the same.
        if !found.isEmpty { try SegmentHistory.markRestartPending(directory: directory, fileSystem: fileSystem) }
        for (salvage, finding) in found {
            moved.append(try salvage.repair(finding))
            repairs.append(finding.repair)
        }
        return (repairs, moved)
    }
}
