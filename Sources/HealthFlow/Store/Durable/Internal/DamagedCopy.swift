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
