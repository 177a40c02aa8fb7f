import FlowKit
import Foundation

@testable import HealthFlow

/// A ``StoreFileSystem`` over the real one that counts every step that changes the disk (create, write,
/// flush, truncate, rename, remove, directory flush) and, at a chosen step, fails or "crashes".
///
/// - `.crash(at: n, keeping: k)`: step n does only part of its work — a write lands its first `k` bytes
///   (`nil`: all of them), any other step does nothing — and throws; from then on every call throws, as if
///   the process had died there (what reached the files stays, as after `kill -9`).
/// - `.fail(at: n, keeping: k)`: step n does the same and throws, but later steps work (a full disk, a
///   flaky device).
final class FaultyFileSystem: StoreFileSystem {
    enum Fault: Sendable, CustomStringConvertible {
        case none
        case crash(at: Int, keeping: Int?)
        case fail(at: Int, keeping: Int?)

        var description: String {
            switch self {
            case .none: "none"
            case .crash(let step, let keeping):
                "crash at step \(step) keeping \(keeping.map(String.init) ?? "all") bytes"
            case .fail(let step, let keeping): "fail at step \(step) keeping \(keeping.map(String.init) ?? "all") bytes"
            }
        }
    }

    /// A step, as the log records it: the operation and the file's name.
    struct Step: Sendable, Equatable {
        let operation: String
        let name: String
        let bytes: Int
    }

    private struct State {
        var steps: [Step] = []
        var crashed = false
        /// Temporary paths renamed into place, so an open file's steps log its current name.
        var renamed: [FileSystemPath: FileSystemPath] = [:]
    }

    private let real = PosixFileSystem()
    private let fault: Fault
    private let state = LockedState(State())

    init(_ fault: Fault = .none) {
        self.fault = fault
    }

    /// Every step taken so far (including the failing one).
    var steps: [Step] { state.withLock { $0.steps } }
    var hasCrashed: Bool { state.withLock { $0.crashed } }

    /// What step `operation` may do: `nil` to go ahead, or how many bytes of a write to keep before throwing.
    private enum Verdict {
        case proceed
        case partial(Int?)
    }

    private func step(_ operation: String, _ path: FileSystemPath, bytes: Int = 0) throws(FileStoreError) -> Verdict {
        try state.withLock { state throws(FileStoreError) in
            if state.crashed { throw .io(operation: operation, path: path.description, errno: EIO) }
            let current = state.renamed[path] ?? path
            state.steps.append(Step(operation: operation, name: current.lastComponent.description, bytes: bytes))
            let number = state.steps.count
            switch fault {
            case .crash(number, let keeping):
                state.crashed = true
                return .partial(keeping)
            case .fail(number, let keeping):
                return .partial(keeping)
            default:
                return .proceed
            }
        }
    }

    private func checkAlive(_ operation: String, _ path: FileSystemPath) throws(FileStoreError) {
        if hasCrashed { throw .io(operation: operation, path: path.description, errno: EIO) }
    }

    fileprivate func write(_ file: any StoreFile, _ path: FileSystemPath, _ bytes: [UInt8], at offset: Int)
        throws(FileStoreError)
    {
        switch try step("write", path, bytes: bytes.count) {
        case .proceed:
            try file.write(bytes, at: offset)
        case .partial(let keeping):
            let kept = min(bytes.count, keeping ?? bytes.count)
            if kept > 0 { try file.write(Array(bytes[0..<kept]), at: offset) }
            throw .io(operation: "write", path: path.description, errno: kept == bytes.count ? EIO : ENOSPC)
        }
    }

    fileprivate func simple(_ operation: String, _ path: FileSystemPath, _ body: () throws(FileStoreError) -> Void)
        throws(FileStoreError)
    {
        switch try step(operation, path) {
        case .proceed: try body()
        case .partial: throw .io(operation: operation, path: path.description, errno: EIO)
        }
    }

    func makeDirectory(at path: FileSystemPath) throws(FileStoreError) {
        try checkAlive("mkdir", path)
        try real.makeDirectory(at: path)
    }

    func contentsOfDirectory(at path: FileSystemPath) throws(FileStoreError) -> [String] {
        try checkAlive("opendir", path)
        return try real.contentsOfDirectory(at: path)
    }

    func readFile(at path: FileSystemPath) throws(FileStoreError) -> [UInt8] {
        try checkAlive("read", path)
        return try real.readFile(at: path)
    }

    func openFileForReading(at path: FileSystemPath) throws(FileStoreError) -> any ReadableStoreFile {
        try checkAlive("read", path)
        return try real.openFileForReading(at: path)
    }

    func createFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile {
        var file: (any StoreFile)?
        try simple("create", path) { () throws(FileStoreError) in file = try real.createFile(at: path) }
        guard let file else { throw .io(operation: "create", path: path.description, errno: EIO) }
        return FaultyFile(file, path: path, fileSystem: self)
    }

    func openFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile {
        try checkAlive("open", path)
        return FaultyFile(try real.openFile(at: path), path: path, fileSystem: self)
    }

    func rename(_ source: FileSystemPath, to destination: FileSystemPath) throws(FileStoreError) {
        try simple("rename", destination) { () throws(FileStoreError) in
            try real.rename(source, to: destination)
            state.withLock { $0.renamed[source] = destination }
        }
    }

    /// The rename of an open file (``StoreFile/rename(to:)``), a step like ``rename(_:to:)``.
    fileprivate func rename(
        _ file: any StoreFile, _ source: FileSystemPath, to destination: FileSystemPath
    ) throws(FileStoreError) {
        try simple("rename", destination) { () throws(FileStoreError) in
            try file.rename(to: destination)
            state.withLock { $0.renamed[source] = destination }
        }
    }

    func removeFile(at path: FileSystemPath) throws(FileStoreError) {
        try simple("remove", path) { () throws(FileStoreError) in try real.removeFile(at: path) }
    }

    func syncDirectory(at path: FileSystemPath) throws(FileStoreError) {
        try simple("syncDirectory", path) { () throws(FileStoreError) in try real.syncDirectory(at: path) }
    }

    func lockFile(at path: FileSystemPath) throws(FileStoreError) -> any StoreFile {
        try checkAlive("lock", path)
        return try real.lockFile(at: path)
    }
}

/// A file whose changes go through its ``FaultyFileSystem``.
private final class FaultyFile: StoreFile {
    private let file: any StoreFile
    /// The file's name as it is now: what the errors this layer makes name, as the real file's do.
    private var path: FileSystemPath
    private let fileSystem: FaultyFileSystem

    init(_ file: any StoreFile, path: FileSystemPath, fileSystem: FaultyFileSystem) {
        self.file = file
        self.path = path
        self.fileSystem = fileSystem
    }

    func write(_ bytes: [UInt8], at offset: Int) throws(FileStoreError) {
        try fileSystem.write(file, path, bytes, at: offset)
    }

    func sync() throws(FileStoreError) {
        try fileSystem.simple("fsync", path) { () throws(FileStoreError) in try file.sync() }
    }

    func truncate(to length: Int) throws(FileStoreError) {
        try fileSystem.simple("truncate", path) { () throws(FileStoreError) in try file.truncate(to: length) }
    }

    func rename(to destination: FileSystemPath) throws(FileStoreError) {
        try fileSystem.rename(file, path, to: destination)
        path = destination
    }

    func close() {
        file.close()
    }
}
