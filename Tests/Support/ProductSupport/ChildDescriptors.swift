import CChildProcess
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call that failed while a child's descriptors were made, with its `errno` value.
struct ChildCallFailure: Error {
    var code: Int32
}

/// The descriptors a ``ChildProcess`` starts with: what becomes its standard input, output and error, the ends
/// this process keeps, and the ends it closes once the child holds its copies. Every descriptor made here is
/// close-on-exec, so no other child inherits one.
struct ChildDescriptors {
    /// The descriptors that become the child's 0, 1 and 2.
    private(set) var stdio: [Int32] = [0, 1, 2]
    private var parentEnds: [Int32?] = [nil, nil, nil]
    private var childEnds: [Int32] = []

    mutating func prepareInput(_ input: ChildProcess.Input) throws(ChildCallFailure) {
        switch input {
        case .nothing:
            stdio[0] = try Self.openFile("/dev/null", O_RDONLY)
            childEnds.append(stdio[0])
        case .pipe:
            let (reading, writing) = try Self.pipe()
            stdio[0] = reading
            childEnds.append(reading)
            parentEnds[0] = writing
        }
    }

    mutating func prepareOutput(_ output: ChildProcess.Output, slot: Int) throws(ChildCallFailure) {
        switch output {
        case .discarded:
            stdio[slot] = try Self.openFile("/dev/null", O_WRONLY)
            childEnds.append(stdio[slot])
        case .inherited:
            stdio[slot] = Int32(slot)
        case .pipe:
            let (reading, writing) = try Self.pipe()
            stdio[slot] = writing
            childEnds.append(writing)
            parentEnds[slot] = reading
        case .file(let url):
            stdio[slot] = try Self.openFile(url.path, O_WRONLY | O_CREAT | O_TRUNC)
            childEnds.append(stdio[slot])
        case .standardOutput:
            stdio[slot] = stdio[1]
        }
    }

    /// The end this process keeps for `slot`, as a handle that closes it when released.
    func parentHandle(_ slot: Int) -> FileHandle? {
        parentEnds[slot].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// Closes the child's ends in this process (the child holds its own copies once started).
    mutating func closeChildEnds() {
        for descriptor in childEnds { close(descriptor) }
        childEnds = []
    }

    /// Closes the ends this process would have kept (when the child could not be started).
    mutating func closeParentEnds() {
        for case let descriptor? in parentEnds { close(descriptor) }
        parentEnds = [nil, nil, nil]
    }

    private static func openFile(_ path: String, _ flags: Int32) throws(ChildCallFailure) -> Int32 {
        let descriptor = path.withCString { open($0, flags | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else { throw ChildCallFailure(code: errno) }
        return descriptor
    }

    private static func pipe() throws(ChildCallFailure) -> (reading: Int32, writing: Int32) {
        var ends: [Int32] = [-1, -1]
        let code = hf_child_pipe(&ends)
        guard code == 0 else { throw ChildCallFailure(code: code) }
        return (ends[0], ends[1])
    }
}
