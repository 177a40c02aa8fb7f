import ExampleSupport
import Foundation
import Testing

/// The CLI prints where each example's code and lesson live (`code: … · lesson: …`): those paths must exist.
@Suite struct ExampleSourcePathsTests {
    /// The package root: three folders above this file (`Tests/ExamplesTests/…`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: ExampleParityTests.examples.indices)
    func everyStylesFileAndTheLessonExist(index: Int) {
        let example = ExampleParityTests.examples[index]
        let paths = ExampleStyle.allCases.map { example.sourcePath(of: $0) } + [example.lessonPath]
        for path in paths {
            #expect(
                FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
                "\(example.name) points the reader to \(path), which does not exist")
        }
    }
}
