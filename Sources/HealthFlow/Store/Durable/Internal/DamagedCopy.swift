import Foundation

/// What a store keeps in its `damaged/` folder: files and bytes it could not read, under names no file there has
/// (the original name, the time, and a counter when that is taken), so nothing there is ever replaced.
enum DamagedCopy {
    /// `name` with the time, and a counter when `taken` holds that; the name returned is added to `taken`.
    static func unusedName(for name: String, taken: inout Set<String>) -> String {
        let stamp = StoreLayout.timestamp(Date())
        var target = name + "." + stamp
        var counter = 1
        while taken.contains(target) {
            counter += 1
            target = name + "." + stamp + "-" + String(counter)
        }
        taken.insert(target)
        return target
    }

    /// Moves files `names` of `directory` into its `damaged/` folder, each under ``unusedName(for:taken:)``, and
    /// flushes both folders. A rename: the file is in one place or the other, whatever a crash interrupts.
    /// - Returns: The new paths, relative to `directory`, in the order of `names`.
    static func moveAside(
        _ names: [String], in directory: FileSystemPath, fileSystem: any StoreFileSystem
    ) throws(FileStoreError) -> [String] {
        guard !names.isEmpty else { return [] }
        let folder = directory.appending(StoreLayout.damagedFolder)
        try fileSystem.makeDirectory(at: folder)
        var taken = Set(try fileSystem.contentsOfDirectory(at: folder))
        var moved: [String] = []
        for name in names {
            let target = unusedName(for: name, taken: &taken)
            try fileSystem.rename(directory.appending(name), to: folder.appending(target))
            moved.append(StoreLayout.damagedFolder + "/" + target)
        }
        try fileSystem.syncDirectory(at: folder)
        try fileSystem.syncDirectory(at: directory)
        return moved
    }

    /// Moves file `name` of `directory` into its `damaged/` folder (``moveAside(_:in:fileSystem:)``).
    static func moveAside(
        _ name: String, in directory: FileSystemPath, fileSystem: any StoreFileSystem
    ) throws(FileStoreError) -> String {
        try moveAside([name], in: directory, fileSystem: fileSystem)[0]
    }

    /// Copies file `name` of `directory`, 1 MiB at a time, into its `damaged/` folder under
    /// ``unusedName(for:taken:)``, flushed with both folders: for a file that is then replaced by what of it reads.
    /// - Returns: The copy's path, relative to `directory`.
    static func copy(
        _ name: String, in directory: FileSystemPath, fileSystem: any StoreFileSystem
    ) throws(FileStoreError) -> String {
        let folder = directory.appending(StoreLayout.damagedFolder)
        try fileSystem.makeDirectory(at: folder)
        var taken = Set(try fileSystem.contentsOfDirectory(at: folder))
        let target = unusedName(for: name, taken: &taken)
        let source = try fileSystem.openFileForReading(at: directory.appending(name))
        defer { source.close() }
        let file = try fileSystem.createFile(at: folder.appending(target))
        defer { file.close() }
        let size = try source.size()
        var copied = 0
        while copied < size {
            let chunk = try source.read(count: min(1 << 20, size - copied), at: copied)
            try file.write(chunk, at: copied)
            copied += chunk.count
        }
        try file.sync()
        try fileSystem.syncDirectory(at: folder)
        try fileSystem.syncDirectory(at: directory)
        return StoreLayout.damagedFolder + "/" + target
    }

    /// Copies the bytes of a torn last record, `bytes` of `torn.file` from `torn.offset` on, into
    /// `damaged/<file>.torn.<time>` under `directory`, flushed with both folders, before the file is cut to its
    /// last complete record: they could not be read, so they are kept, not deleted.
    /// - Returns: The copy's path relative to `directory`.
    static func keep(
        _ torn: FileStoreRecovery.TornTail, of bytes: [UInt8], in directory: FileSystemPath,
        fileSystem: any StoreFileSystem
    ) throws(FileStoreError) -> String {
        let folder = directory.appending(StoreLayout.damagedFolder)
        try fileSystem.makeDirectory(at: folder)
        var taken = Set(try fileSystem.contentsOfDirectory(at: folder))
        let target = unusedName(for: torn.file + ".torn", taken: &taken)
        let file = try fileSystem.createFile(at: folder.appending(target))
        defer { file.close() }
        try file.write(Array(bytes[min(torn.offset, bytes.count)...]), at: 0)
        try file.sync()
        try fileSystem.syncDirectory(at: folder)
        try fileSystem.syncDirectory(at: directory)
        return StoreLayout.damagedFolder + "/" + target
    }
}
