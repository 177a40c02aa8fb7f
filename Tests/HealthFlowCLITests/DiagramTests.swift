import FlowKit
import Foundation
import Testing

@testable import healthflow

/// The diagrams in the docs are drawn from the graphs the code runs: a diagram that no longer matches its graph
/// fails here, with the diagram to paste.
@Suite struct DiagramTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The ```mermaid blocks of the file at `path` (relative to the package root).
    static func mermaidBlocks(in path: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        return text.components(separatedBy: "```mermaid\n").dropFirst().compactMap { rest in
            rest.range(of: "\n```").map { String(rest[..<$0.lowerBound]) }
        }
    }

    @Test func readmeDrawsTheDemosYearlyReportGraph() throws {
        let diagram = YearlyReport.diagram
        #expect(
            try Self.mermaidBlocks(in: "README.md").contains(diagram),
            "README.md must show the demo's graph as drawn from YearlyReport.chain; paste:\n```mermaid\n\(diagram)\n```"
        )
    }
}
