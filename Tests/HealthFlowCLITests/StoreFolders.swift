import ExampleSupport
import Foundation
import HealthFlow

/// Data folders as the command line finds them: a journal store made through the library (the command keeps a
/// folder's format, and makes new folders disk-backed), and a folder's store opened for a test to read.
enum StoreFolders {
    /// Makes an empty journal store (``FileHealthStore``) in `folder`, so the command opens it as one.
    static func makeJournalStore(at folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileHealthStore(directory: folder, configuration: ExampleContext.app).close()
    }

    /// Runs `body` with the store in `folder`, opened in its format as the command's app, then closes it.
    static func withStore<T>(in folder: URL, _ body: (any HealthStore) async throws -> T) async throws -> T {
        switch try DurableStoreFormat.of(directoryPath: FileSystemPath(folder)) {
        case .journal:
            let store = try FileHealthStore(directory: folder, configuration: ExampleContext.app)
            defer { store.close() }
            return try await body(store)
        case .segments, nil:
            let backend = try SegmentedHealthStoreBackend(directory: FileSystemPath(folder))
            defer { backend.close() }
            return try await body(BackedHealthStore(backend: backend, configuration: ExampleContext.app))
        }
    }
}
