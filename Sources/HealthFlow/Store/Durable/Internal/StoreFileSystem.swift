/// The file operations a ``FileHealthStore`` performs, so tests can put a failing or crashing layer under
/// it. ``PosixFileSystem`` is the real one. Paths are absolute.
protocol StoreFileSystem: Sendable {
    /// Creates the directory with mode 0700 unless it exists; throws `notADirectory` when the path is a file.
    func makeDirectory(at path: String) throws(FileStoreError)
    /// The names in a directory.
    func contentsOfDirectory(at path: String) throws(FileStoreError) -> [String]
    /// A whole file's bytes.
    func readFile(at path: String) throws(FileStoreError) -> [UInt8]
    /// Creates (or truncates) a file with mode 0600, open for writing.
    func createFile(at path: String) throws(FileStoreError) -> any StoreFile
    /// Opens an existing file for writing (a journal to append to).
    func openFile(at path: String) throws(FileStoreError) -> any StoreFile
    /// Renames atomically, replacing `destination`.
    func rename(_ source: String, to destination: String) throws(FileStoreError)
    /// Removes a file.
    func removeFile(at path: String) throws(FileStoreError)
    /// Flushes a directory's entries (after creating, renaming or removing files in it).
    func syncDirectory(at path: String) throws(FileStoreError)
    /// Takes an exclusive `flock` on the file (created 0600 if needed), waiting out a lock held for a moment
    /// (``PosixFileSystem/lockPatience``); throws `alreadyOpen` when another open file description keeps it.
    /// The lock lasts until the handle closes.
    func lockFile(at path: String) throws(FileStoreError) -> any StoreFile
}

/// An open file. Not thread-safe: the store uses each one under a lock.
protocol StoreFile: AnyObject {
    /// Writes all of `bytes` at `offset`, or throws (possibly after writing part of them).
    func write(_ bytes: [UInt8], at offset: Int) throws(FileStoreError)
    /// Flushes the file's data to stable storage (`fsync`).
    func sync() throws(FileStoreError)
    /// Cuts the file to `length` bytes.
    func truncate(to length: Int) throws(FileStoreError)
    /// Closes the file (releasing any lock). Closing twice does nothing.
    func close()
}
