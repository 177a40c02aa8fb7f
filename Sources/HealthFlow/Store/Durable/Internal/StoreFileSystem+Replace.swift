extension StoreFileSystem {
    /// Replaces the file `name` in `directory` with what `fill` writes into a new file: written under the file's
    /// temporary name (``StoreLayout/temporaryName(for:)``), flushed, renamed into place, then the directory flushed.
    /// A crash leaves the old file or the new one, never a part of either; a leftover temporary file is the
    /// owner's to remove when it opens.
    /// - Throws: What `fill` or the file system threw; before the rename the old file is in place and the temporary
    ///   file removed (as far as possible). A failed directory flush is thrown after the rename: the new file is in
    ///   place, but whether its name survives a crash is unknown.
    func replaceFile(
        named name: String, in directory: FileSystemPath, fill: (any StoreFile) throws(FileStoreError) -> Void
    ) throws(FileStoreError) {
        let temporary = directory.appending(StoreLayout.temporaryName(for: name))
        do throws(FileStoreError) {
            let file = try createFile(at: temporary)
            defer { file.close() }
            try fill(file)
            try file.sync()
        } catch {
            try? removeFile(at: temporary)
            throw error
        }
        do throws(FileStoreError) {
            try rename(temporary, to: directory.appending(name))
        } catch {
            try? removeFile(at: temporary)
            throw error
        }
        try syncDirectory(at: directory)
    }
}
