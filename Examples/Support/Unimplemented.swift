/// What an exercise stub throws (or, for a function that cannot throw, reports) until the learner writes it.
///
/// Its description names the exercise, the function to write and the file it lives in, so a failing test reads
/// as an instruction rather than a puzzle.
public struct Unimplemented: Error, Equatable, CustomStringConvertible {
    /// The lesson and number, such as `ReadHeights 2`.
    public let exercise: String
    /// The function whose body is still to be written.
    public let function: String
    /// The file, as `#fileID` spells it (`Exercises/ReadHeightsExercises.swift`).
    public let file: String

    /// The stub of `exercise`; `function` and `file` default to the caller's.
    public init(_ exercise: String, function: String = #function, file: String = #fileID) {
        self.exercise = exercise
        self.function = function
        self.file = file
    }

    /// The lesson's name: the exercise without its number.
    public var lesson: String { String(exercise.prefix { $0 != " " }) }

    /// What to do: the exercise, the function to write, its file, and the command that checks it.
    public var description: String {
        "Exercise \(exercise) is not done yet: write the body of \(function) in Examples/\(file) "
            + "(its comment has the task and hints), then run: "
            + "HEALTHFLOW_EXERCISES=mine swift test --filter Exercise\(lesson)"
    }
}
