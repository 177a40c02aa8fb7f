import ExampleSupport
import Foundation
import Testing

/// A lesson's key lines (printed by `healthflow example NAME --explain`) must be the example's code: each line,
/// with `…` standing for what it leaves out, appears token for token in its style's file (line breaks and
/// spacing aside, comments ignored).
@Suite struct LessonKeyLinesTests {
    /// Identifiers, numbers, and every other character on its own; comments removed first.
    static func tokens(_ text: String) -> [Substring] {
        let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.range(of: "//").map { line[..<$0.lowerBound] } ?? line
        }.joined(separator: "\n")
        var tokens: [Substring] = []
        var index = code.startIndex
        while index < code.endIndex {
            let character = code[index]
            if character.isWhitespace {
                index = code.index(after: index)
            } else if character.isLetter || character == "_" || character.isNumber {
                let end = code[index...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_") } ?? code.endIndex
                tokens.append(code[index..<end])
                index = end
            } else {
                let next = code.index(after: index)
                tokens.append(code[index..<next])
                index = next
            }
        }
        return tokens
    }

    /// Whether `needle` stands, contiguous, in `haystack`.
    static func contains(_ haystack: [Substring], _ needle: [Substring]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<(start + needle.count)].elementsEqual(needle)
        }
    }

    @Test(arguments: ExampleParityTests.examples.indices)
    func everyKeyLineIsTheCode(index: Int) throws {
        let example = ExampleParityTests.examples[index]
        let lesson = try Lesson(of: example)
        #expect(!lesson.pattern.isEmpty)
        for style in ExampleStyle.allCases {
            let path = Lesson.packageRoot.appendingPathComponent(example.sourcePath(of: style)).path
            let source = Self.tokens(try String(contentsOfFile: path, encoding: .utf8))
            let keyLines = try #require(lesson.styles[style]).code
            for line in keyLines.split(separator: "\n") {
                let code = line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
                for part in code.components(separatedBy: "…") {
                    let isTheCode = Self.contains(source, Self.tokens(part))
                    #expect(
                        isTheCode,
                        "\(example.lessonPath) shows `\(part.trimmingCharacters(in: .whitespaces))` for \(style), which \(example.sourcePath(of: style)) does not hold"
                    )
                }
            }
        }
    }

    @Test func aKeyLineTheCodeDoesNotHoldIsFound() {
        let source = Self.tokens("let x = store.save(sample)\n// store.delete(sample)\n")
        #expect(Self.contains(source, Self.tokens("store.save(sample)")))
        #expect(!Self.contains(source, Self.tokens("store.delete(sample)")), "comments do not count")
        #expect(!Self.contains(source, Self.tokens("store.save(other)")))
    }
}
