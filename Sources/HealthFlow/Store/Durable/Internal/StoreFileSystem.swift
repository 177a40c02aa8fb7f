/// The file operations a ``FileHealthStore`` performs, so tests can put a failing or crashing layer under
/// it. ``PosixFileSystem`` is the real one. Paths are the bytes the store was given (``FileSystemPath``), joined with
/// the store's own ASCII file names: never decoded, never re-encoded.
protocol StoreFileSystem: Sendable {
    /// Creates the directory with mode 0700 unless it exists; throws `notADirectory` when the path is a file.
    func makeDirectory(at path: FileSystemPath) throws(FileStoreError)
    /// The names in a directory that are UTF-8 (the store's own files have ASCII names: a name that is not
    /// UTF-8 is never one of them, and is left out rather than decoded into a name it does not have).
    func contentsOfDirectory(at path: FileSystemPath) throws(FileStoreError) -> [String]
    /// A whole file's bytes.
    func readFile(at path: FileSystemPath) throws(FileStoreError) -> [UInt8]
    /// Creates (or truncates) a file with mode 0600, open for writing.
    func createFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile
    /// Opens an existing file for writing (a journal to append to).
    func openFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile
    /// Opens an existing file for reading parts of it (a segment, read block by block).
    func openFileForReading(at path: FileSystemPath) throws(FileStoreError) -> any ReadableStoreFile
    /// Renames atomically, replacing `destination`.
    func rename(_ source: FileSystemPath, to destination: FileSystemPath) throws(FileStoreError)
    /// Removes a file.
    func removeFile(at path: FileSystemPath) throws(FileStoreError)
    /// Flushes a directory's entries (after creating, renaming or removing files in it).
    func syncDirectory(at path: FileSystemPath) throws(FileStoreError)
    /// Takes an exclusive `flock` on the file (created 0600 if needed), waiting out a lock held for a moment
    /// (``PosixFileSystem/lockPatience``); throws `alreadyOpen` when another open file description keeps it.
    /// The lock lasts until the handle closes.
    func lockFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile
}

/// An open file. Not thread-safe: the store uses each one under a lock.
protocol StoreFile: AnyObject {
    /// Writes all of `bytes` at `offset`, or throws (possibly after writing part of them).
    func write(_ bytes: [UInt8], at offset: Int) throws(FileStoreError)
    /// Flushes the file's data to stable storage (`fsync`).
    func sync() throws(FileStoreError)
    /// Cuts the file to `length` bytes.
    func truncate(to length: Int) throws(FileStoreError)
    /// Renames the file this handle has open, atomically, replacing `destination`; from then on the handle's errors
    /// name `destination`, the file's name as it is now.
    func rename(to destination: FileSystemPath) throws(FileStoreError)
    /// Closes the file (releasing any lock). Closing twice does nothing.
    func close()
}

/// A file open for reading at offsets (`pread`), so that a reader holds only the parts it asked for. Not
/// thread-safe: the store uses each one under a lock.
protocol ReadableStoreFile: AnyObject {
    /// The file's size in bytes when asked.
    func size() throws(FileStoreError) -> Int
    /// Exactly `count` bytes from `offset`, or throws (a file that ends before
    /// them is `corruptFile(…, .truncated)`).
    func read(count: Int, at offset: Int) throws(FileStoreError) -> [UInt8]
    /// Closes the file. Closing twice does nothing.
    func close()
}
