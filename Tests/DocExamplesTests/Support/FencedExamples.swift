import Foundation

/// The fenced code blocks of the package's documentation, and where each one is compiled.
///
/// Documentation is every DocC article (`*.md` inside a `*.docc` folder) and every `///` doc comment of a Swift
/// file, in ``documentedFolders`` (this target's own files aside). A ```` ```swift ```` block counts as compiled when its lines appear,
/// in order and consecutively, in a Swift file of this test target — after the `///` prefix and the block's common
/// indentation are stripped, and with any one indentation of its own in that file.
struct FencedExamples {
    /// A fenced block: where it opens (`path:line`, the path relative to the package root), its language (the
    /// fence's info string, empty when the fence names none) and its lines without the comment prefix and the common
    /// indentation.
    struct Block: CustomStringConvertible {
        let path: String
        let line: Int
        let language: String
        let lines: [String]

        var description: String { "\(path):\(line)" }
    }

    /// The folders whose documentation is checked.
    static let documentedFolders = ["Sources", "Examples", "Tests", "Benchmarks/Sources", "Benchmarks/Benchmarks"]

    /// The package's root folder, found from this file's place in `Tests/DocExamplesTests/Support/`.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The folder whose Swift files hold the compiled examples.
    static let examplesFolder = "Tests/DocExamplesTests"

    /// Every fenced block of the documentation in ``documentedFolders``, outside
    /// ``examplesFolder``.
    static func documentationBlocks() throws -> [Block] {
        try documentedFolders.flatMap { try files(under: $0) }
            .filter { !$0.hasPrefix(examplesFolder + "/") }
            .flatMap { try blocks(inFile: $0) }
    }

    /// The fenced blocks of the file at `path` (relative to the package root): of its `///` comments for a Swift
    /// file, of the whole text for a DocC article, none for any other file.
    static func blocks(inFile path: String) throws -> [Block] {
        let isArticle = path.hasSuffix(".md") && path.split(separator: "/").contains { $0.hasSuffix(".docc") }
        guard path.hasSuffix(".swift") || isArticle else { return [] }
        return try {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
            if path.hasSuffix(".swift") { return blocks(in: text, path: path, commentPrefix: "///") }
            return blocks(in: text, path: path, commentPrefix: nil)
        }()
    }

    /// The Swift files of ``examplesFolder``, indexed by their lines' text.
    static func compiledCode() throws -> CompiledCode {
        CompiledCode(
            files: try files(under: examplesFolder).filter { $0.hasSuffix(".swift") }.map { path in
                try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
                    .components(separatedBy: "\n")
            })
    }

    /// Lines of code, indexed so that finding a block costs a lookup per candidate place rather than a scan.
    struct CompiledCode {
        /// Each file's lines, without trailing spaces.
        let files: [[String]]
        /// Where each line's text (without its indentation) occurs: file and line index.
        let places: [Substring: [(file: Int, line: Int)]]

        init(files: [[String]]) {
            self.files = files.map { $0.map(FencedExamples.trimmingTrailingSpaces) }
            var places: [Substring: [(file: Int, line: Int)]] = [:]
            for (file, lines) in self.files.enumerated() {
                for (line, text) in lines.enumerated() {
                    places[text.drop { $0 == " " }, default: []].append((file, line))
                }
            }
            self.places = places
        }

        /// Whether `block` appears in one of the files: consecutive lines, each the block's line after one common
        /// indentation (blank lines match blank lines).
        func contains(_ block: [String]) -> Bool {
            guard let offset = block.firstIndex(where: { !$0.isEmpty }) else { return true }
            return (places[Substring(block[offset])] ?? []).contains { place in
                let lines = files[place.file]
                let start = place.line - offset
                guard start >= 0, start + block.count <= lines.count else { return false }
                let indent = lines[place.line].prefix { $0 == " " }
                return block.indices.allSatisfy { index in
                    block[index].isEmpty ? lines[start + index].isEmpty : lines[start + index] == indent + block[index]
                }
            }
        }
    }

    static func trimmingTrailingSpaces(_ line: String) -> String {
        String(line.reversed().drop { $0 == " " }.reversed())
    }

    /// The paths (relative to the package root) of the files under `folder`, sorted.
    static func files(under folder: String) throws -> [String] {
        let base = packageRoot.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return walker.compactMap { $0 as? String }.map { "\(folder)/\($0)" }.filter { !$0.hasSuffix("/") }.sorted()
    }

    /// The fenced blocks of `text`. With a `commentPrefix`, only lines that start (after indentation) with it are
    /// documentation, and the prefix plus one following space are stripped; a block ends at its closing fence or
    /// where the comment ends.
    static func blocks(in text: String, path: String, commentPrefix: String?) -> [Block] {
        var result: [Block] = []
        var open: (line: Int, language: String, fence: String, lines: [String])?
        for (index, rawLine) in text.components(separatedBy: "\n").enumerated() {
            guard let line = documentationLine(rawLine, commentPrefix: commentPrefix) else {
                if let block = open {
                    result.append(
                        Block(path: path, line: block.line, language: block.language, lines: dedented(block.lines)))
                    open = nil
                }
                continue
            }
            let trimmed = line.drop { $0 == " " }
            if let block = open {
                if trimmed.hasPrefix(block.fence) && trimmed.drop(while: { $0 == "`" || $0 == "~" }).isEmpty {
                    result.append(
                        Block(path: path, line: block.line, language: block.language, lines: dedented(block.lines)))
                    open = nil
                } else {
                    open?.lines.append(line)
                }
            } else if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                let fence = String(trimmed.prefix { $0 == trimmed.first })
                let language = trimmed.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
                open = (index + 1, language, fence, [])
            }
        }
        if let block = open {
            result.append(Block(path: path, line: block.line, language: block.language, lines: dedented(block.lines)))
        }
        return result
    }

    /// `line` without its comment prefix, or `nil` when it is not documentation.
    static func documentationLine(_ line: String, commentPrefix: String?) -> String? {
        guard let commentPrefix else { return line }
        let content = line.drop { $0 == " " || $0 == "\t" }
        guard content.hasPrefix(commentPrefix), !content.hasPrefix(commentPrefix + "/") else { return nil }
        let rest = content.dropFirst(commentPrefix.count)
        return String(rest.hasPrefix(" ") ? rest.dropFirst() : rest)
    }

    /// `lines` without trailing spaces and without the indentation they all share (blank lines aside).
    static func dedented(_ lines: [String]) -> [String] {
        let trimmed = lines.map(trimmingTrailingSpaces)
        let indent = trimmed.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return trimmed.map { $0.isEmpty ? $0 : String($0.dropFirst(indent)) }
    }
}
