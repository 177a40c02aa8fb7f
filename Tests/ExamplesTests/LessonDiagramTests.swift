import ExampleSupport
import FlowKit
import Foundation
import OperationChainsExample
import Testing

/// A lesson's diagrams are its code's graphs drawn (`graph.mermaid`): a diagram that no longer matches fails
/// here, with the diagram to paste.
@Suite struct LessonDiagramTests {
    /// The ```mermaid blocks of the file at `path` (relative to the package root).
    static func mermaidBlocks(in path: String) throws -> [String] {
        let url = ExampleSourcePathsTests.root.appendingPathComponent(path)
        return try String(contentsOf: url, encoding: .utf8).components(separatedBy: "```mermaid\n").dropFirst()
            .compactMap { rest in rest.range(of: "\n```").map { String(rest[..<$0.lowerBound]) } }
    }

    @Test func operationChainsDrawsItsTwoChains() throws {
        let blocks = try Self.mermaidBlocks(in: "Examples/OperationChains/LESSON.md")
        let queue = OperationQueue()
        for (name, chain) in [
            ("thenChain", thenChain(on: queue, log: StepLog())),
            ("fanOutChain", fanOutChain(on: queue, log: StepLog())),
        ] {
            let diagram = chain.graph.mermaid
            #expect(
                blocks.contains(diagram),
                "Examples/OperationChains/LESSON.md must draw \(name) as its code describes it; paste:\n```mermaid\n\(diagram)\n```"
            )
        }
    }

    @Test(arguments: 0..<5)
    func eachLessonDrawsItsFlowAsTheChainDescribesIt(example index: Int) throws {
        let example = ExampleParityTests.drawn[index]
        let blocks = try Self.mermaidBlocks(in: example.lessonPath)
        let context = ExampleContext.embedded()
        defer { try? FileManager.default.removeItem(at: context.workDirectory) }
        let diagram = try example.flow(in: context, on: OperationQueue()).graph.mermaid
        #expect(
            blocks.contains(diagram),
            "\(example.lessonPath) must draw \(example.name)'s flow as its chain describes it; paste:\n```mermaid\n\(diagram)\n```"
        )
    }
}
