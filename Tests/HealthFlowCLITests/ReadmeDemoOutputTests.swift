import Foundation
import Testing

/// README.md prints the demo's output; these tests keep it true: the step lines (`[style] what it does`) of
/// each printed run are the real demo's, in the same order.
@Suite struct ReadmeDemoOutputTests {
    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    /// The fenced blocks of README.md that show a demo run, in order.
    static func printedRuns() throws -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in try String(contentsOf: readme, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            if line.hasPrefix("```") {
                if let block = current {
                    blocks.append(block.joined(separator: "\n"))
                    current = nil
                } else {
                    current = []
                }
            } else {
                current?.append(line)
            }
        }
        return blocks.filter { $0.hasPrefix("HealthFlow demo") }
    }

    /// The step lines of a run, with runs of spaces collapsed (durations and results are not compared).
    static func steps(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("[") }.map { line in
            line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
    }

    @Test func readmeShowsTheFirstAndSecondDemoRunsStepsInOrder() async throws {
        let printed = try Self.printedRuns()
        try #require(printed.count == 2, "README.md should print the first run and the reopening run")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await HealthFlowCommandTests.healthflow("demo", "--data", folder.path)
        let second = try await HealthFlowCommandTests.healthflow("demo", "--data", folder.path)
        #expect(first.status == 0 && second.status == 0)

        #expect(Self.steps(printed[0]) == Self.steps(first.output))
        // The second printed run stops after its first steps ("…"): they must start the real second run.
        let reopened = Self.steps(printed[1])
        #expect(!reopened.isEmpty)
        #expect(Array(Self.steps(second.output).prefix(reopened.count)) == reopened)
    }
}

/// README prose names commands the way a newcomer can paste them: `swift run healthflow …`, never a bare
/// `healthflow …`, which no shell finds until the program is installed.
@Suite struct ReadmeCommandSpellingTests {
    @Test func everyCommandInTheProseStartsWithSwiftRun() throws {
        let text = try String(contentsOf: ReadmeDemoOutputTests.readme, encoding: .utf8)
        let bare = text.split(separator: "\n").enumerated().filter { _, line in
            line.contains("`healthflow ")
        }
        #expect(bare.isEmpty, "README lines with a bare `healthflow COMMAND`: \(bare.map { $0.offset + 1 })")
    }

    @Test func readmesPrintedRunsExplainTheirNumbersAndSummary() throws {
        for run in try ReadmeDemoOutputTests.printedRuns() {
            #expect(run.contains("Each step: [the style it is written in] what it does"), "the legend line")
        }
        let first = try #require(try ReadmeDemoOutputTests.printedRuns().first)
        #expect(first.contains("in all (setup "), "the summary splits setup from workflows")
    }
}
