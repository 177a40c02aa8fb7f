import Foundation

/// An example's `LESSON.md`, read from the package's source tree: its pattern paragraph and the three styles'
/// key lines, which `healthflow example NAME --explain` prints beside the runs.
///
/// The lesson is the one place these words live; the key lines are checked against the styles' code by
/// `Tests/ExamplesTests` (every line, with `…` standing for what it leaves out, must be the code's).
public struct Lesson: Sendable {
    /// The paragraph that opens with **Pattern.**, without the marker, on one line.
    public let pattern: String
    /// Each style's caption (the line above its code block) and key lines, in the lesson's order.
    public let styles: [ExampleStyle: (caption: String, code: String)]

    /// Why a lesson could not be read.
    public struct Unreadable: Error, CustomStringConvertible {
        /// The lesson's path.
        public let path: String
        /// What was wrong.
        public let reason: String
        /// The lesson's path and what was wrong.
        public var description: String { "cannot read the lesson \(path): \(reason)" }
    }

    /// The package's root folder, as this file was compiled (the lessons are read from the source tree).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Reads `example`'s lesson.
    public init(of example: any HealthExample.Type) throws(Unreadable) {
        let path = Self.packageRoot.appendingPathComponent(example.lessonPath).path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Unreadable(path: path, reason: "no such file (is the package's source tree here?)")
        }
        try self.init(markdown: String(decoding: data, as: UTF8.self), path: path)
    }

    /// Parses a lesson's Markdown: the `**Pattern.**` paragraph, and the first three Swift code blocks of the
    /// section "The three styles side by side" (callback, promise, async, each under its caption).
    public init(markdown: String, path: String) throws(Unreadable) {
        let lines = markdown.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("**Pattern.**") }) else {
            throw Unreadable(path: path, reason: "no **Pattern.** paragraph")
        }
        let paragraph = lines[start...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        pattern = paragraph.joined(separator: " ").replacingOccurrences(of: "**Pattern.** ", with: "")
        guard let section = lines.firstIndex(of: "## The three styles side by side") else {
            throw Unreadable(path: path, reason: "no section \"The three styles side by side\"")
        }
        var blocks: [(caption: String, code: String)] = []
        var index = section + 1
        var caption = ""
        while index < lines.count, blocks.count < 3, !lines[index].hasPrefix("## ") {
            let line = lines[index]
            if line == "```swift" {
                let body = lines[(index + 1)...].prefix { $0 != "```" }
                blocks.append((caption, body.joined(separator: "\n")))
                index += body.count + 2
                continue
            }
            if !line.isEmpty { caption = line }
            index += 1
        }
        guard blocks.count == 3 else {
            throw Unreadable(path: path, reason: "the styles' section has \(blocks.count) Swift blocks, not 3")
        }
        styles = Dictionary(uniqueKeysWithValues: zip(ExampleStyle.allCases, blocks))
    }
}
