/// A command that could not do its work (a scratch folder it cannot lock, a file it cannot write): the command
/// prints it and exits with ``ExitCode/failure``. A refused command line is an ``ArgumentError`` instead.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
