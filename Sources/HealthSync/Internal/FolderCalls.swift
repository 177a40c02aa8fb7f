import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call on a folder: which call, on which path, and its `errno`.
struct FolderFailure: Error {
    let operation: String
    let path: String
    let code: Int32
}

/// Creates `path` and any missing parent (each new folder `mode`, exactly: the umask does not apply), as
/// `mkdir -p` does, with the real `errno` of the call that failed (FileManager reports none on Linux).
func makeFolders(atPath path: String, mode: mode_t) throws(FolderFailure) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
        prefix += "/" + component
        if mkdir(prefix, mode) == 0 {
            guard chmod(prefix, mode) == 0 else { throw FolderFailure(operation: "chmod", path: prefix, code: errno) }
            continue
        }
        let code = errno
        var status = stat()
        guard code == EEXIST, stat(prefix, &status) == 0 else {
            throw FolderFailure(operation: "mkdir", path: prefix, code: code)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw FolderFailure(operation: "mkdir", path: prefix, code: ENOTDIR)
        }
    }
}

/// The names in a folder, with the real `errno` when it cannot be listed.
func folderNames(atPath path: String) throws(FolderFailure) -> [String] {
    guard let stream = opendir(path) else { throw FolderFailure(operation: "opendir", path: path, code: errno) }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
