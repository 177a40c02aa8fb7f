import ExampleSupport

/// Where the code behind each command's output lives, and where to go next: the lines the CLI prints under a
/// run so that a reader can find the code. Paths are relative to the package root.
enum SourceGuide {
    /// Under each style's run of an example: its code and its lesson.
    static func code(of example: any HealthExample.Type, style: ExampleStyle) -> String {
        "code: \(example.sourcePath(of: style)) · lesson: \(example.lessonPath)"
    }

    /// After an example: its lesson, then its exercises.
    static func next(after example: any HealthExample.Type) -> String {
        "Next: read \(example.lessonPath), then try its exercises: "
            + "HEALTHFLOW_EXERCISES=mine swift test --filter Exercise\(example.folder)"
    }

    /// Under the tour.
    static let tourCode = "code: Sources/healthflow/FlowKitTour.swift · articles: Sources/FlowKit/FlowKit.docc/"

    /// After the tour.
    static let afterTour =
        "Next: swift run healthflow demo (the health workflows), then swift run healthflow example --list "
        + "(seven lessons with exercises: Examples/README.md)"

    /// Under the demo.
    static let demoCode =
        "code: Sources/healthflow/HealthDemo.swift · the workflows: Sources/HealthFlow/Workflows/ "
        + "· articles: Sources/HealthFlow/HealthFlow.docc/"

    /// After the demo.
    static let afterDemo =
        "Next: swift run healthflow example --list, then a lesson and its exercises (Examples/README.md)"

    /// The overview's pointers to the teaching material.
    static let learn = [
        "LEARN:",
        "  Examples/README.md           six seed programs ported to promises and async/await, each with a LESSON.md",
        "  healthflow example --list    runs them: one style, or all three side by side",
        "  Examples/Exercises/          exercises to write; check yours with",
        "                               HEALTHFLOW_EXERCISES=mine swift test --filter ExerciseWriteHeight",
    ]
}
