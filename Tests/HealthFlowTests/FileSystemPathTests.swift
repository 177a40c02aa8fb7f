import Foundation
import HealthFlow
import RawPathSupport
import Testing

/// ``FileSystemPath`` keeps a path's bytes exactly: joined, split and handed to system calls without ever being
/// decoded and encoded again.
struct FileSystemPathTests {
    @Test func bytesPassThroughUnchanged() throws {
        let bytes = Array("/tmp/".utf8) + [0xFF, 0xC3, 0x28, 0x80]
        let path = try FileSystemPath(bytes: bytes)
        #expect(path.bytes == bytes)
        #expect(!path.isValidUTF8)
        #expect(path.url == nil)
        #expect(path.description == "/tmp/\u{FFFD}\u{FFFD}(\u{FFFD}")
        let fromC = bytes.map { CChar(bitPattern: $0) } + [0]
        #expect(FileSystemPath(platformString: fromC) == path)
        #expect(path.withCString { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) } == fromC.dropLast())
    }

    @Test func aNULByteIsRefusedWithItsOffset() {
        #expect(throws: FileSystemPathError.containsNUL(offset: 2)) {
            try FileSystemPath(bytes: [0x2F, 0x61, 0, 0x62])
        }
        #expect(FileSystemPath("/a\u{0}b").bytes == Array("/a".utf8))
    }

    @Test func aUTF8PathMatchesItsStringAndURL() {
        let path = FileSystemPath("/tmp/café/outbox")
        #expect(path.isValidUTF8)
        #expect(path.bytes == Array("/tmp/café/outbox".utf8))
        #expect(path.url?.path == "/tmp/café/outbox")
        #expect(FileSystemPath(URL(fileURLWithPath: "/tmp/café/outbox")) == path)
    }

    @Test func appendingJoinsWithOneSlashAndKeepsBothSidesBytes() throws {
        let folder = try FileSystemPath(bytes: Array("/data-".utf8) + [0xFF])
        #expect(folder.appending("sync").bytes == Array("/data-".utf8) + [0xFF] + Array("/sync".utf8))
        #expect(FileSystemPath("/data/").appending("sync").description == "/data/sync")
        #expect(FileSystemPath("").appending("sync").description == "sync")
        let name = try FileSystemPath(bytes: [0xFE, 0x41])
        #expect(FileSystemPath("/a").appending(name).bytes == Array("/a/".utf8) + [0xFE, 0x41])
    }

    @Test(arguments: [
        ("/a/b", "/a", "b"), ("/a/b/", "/a", "b"), ("/a", "/", "a"), ("/", "/", ""), ("a", ".", "a"),
        ("a//b", "a", "b"), ("//a", "/", "a"), ("", ".", ""),
    ])
    func parentAndLastComponentSplitAsDirnameAndBasename(path: String, parent: String, last: String) {
        #expect(FileSystemPath(path).parent.description == parent)
        #expect(FileSystemPath(path).lastComponent.description == last)
    }

    @Test func parentAndLastComponentKeepBytesThatAreNotUTF8() throws {
        let middle = RawPaths.withBrokenSequence("mid-", "-dle")
        let path = try FileSystemPath(bytes: Array("/x/".utf8) + middle + Array("/store".utf8))
        #expect(path.parent.bytes == Array("/x/".utf8) + middle)
        #expect(path.parent.lastComponent.bytes == middle)
    }

    @Test(arguments: [
        "/tmp/x/", "/tmp/./x", "/tmp/a/../x", "/tmp//x", "/../x", "/tmp/x/..", "/", "/a/b/../../..", "/tmp/.x/...",
    ])
    func lexicalNormalizationIsURLStandardization(path: String) {
        let url = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
        #expect(FileSystemPath(path).lexicallyNormalized().description == url.path)
    }

    @Test func lexicalNormalizationKeepsRawComponentsAndRelativePaths() throws {
        let path = try FileSystemPath(bytes: Array("/a/./".utf8) + [0xFF] + Array("/b/..//".utf8))
        #expect(path.lexicallyNormalized().bytes == Array("/a/".utf8) + [0xFF])
        #expect(FileSystemPath("../a/./b/..").lexicallyNormalized().description == "../a")
        #expect(FileSystemPath("a/..").lexicallyNormalized().description == ".")
    }

    /// The package's own calls on byte paths: folders, listings, contents and removal reach exactly the bytes.
    @Test func thePackagesCallsReachTheRawNames() throws {
        let parent = RawPaths.temporaryFolder("path-calls")
        let root = try FileSystemPath(bytes: parent)
        defer { try? root.removeTree() }
        let first = RawPaths.withFF("one-")
        let second = RawPaths.withBrokenSequence("two-", "")
        let nested = try FileSystemPath(bytes: RawPaths.join(RawPaths.join(parent, first), second))
        try nested.makeFolders(mode: 0o700)
        #expect(RawPaths.names(in: parent) == [first])
        #expect(RawPaths.names(in: RawPaths.join(parent, first)) == [second])
        #expect(!RawPaths.holdsReplacement(parent) && !RawPaths.holdsReplacement(RawPaths.join(parent, first)))

        let file = nested.appending(try FileSystemPath(bytes: RawPaths.withFF("file-")))
        try file.writeContents([1, 2, 3], mode: 0o600)
        #expect(try file.readContents() == [1, 2, 3])
        #expect(try nested.entryNames().map(\.bytes) == [RawPaths.withFF("file-")])
        #expect(RawPaths.names(in: nested.bytes) == [RawPaths.withFF("file-")])

        try root.appending(try FileSystemPath(bytes: first)).removeTree()
        #expect(RawPaths.names(in: parent).isEmpty)
    }

    /// A listing longer than one `readdir` buffer (32 KiB of records; 2,000 short names fill it twice) reads
    /// every name in place: the last record of a full buffer ends a few bytes before it does, so a name copied
    /// as the whole 256-byte `d_name` field reads past the buffer (AddressSanitizer stops that run).
    @Test func listingAFolderOfManyShortNamesGivesEachNameOnce() throws {
        let root = try FileSystemPath(bytes: RawPaths.temporaryFolder("many-names"))
        defer { try? root.removeTree() }
        let names = (0..<2_000).map { "n\($0)" }
        for name in names { try root.appending(name).writeContents([], mode: 0o600) }
        #expect(try root.entryNames().map(\.description).sorted() == names.sorted())
        #expect(RawPaths.names(in: root.bytes).map { String(decoding: $0, as: UTF8.self) }.sorted() == names.sorted())
    }
}
