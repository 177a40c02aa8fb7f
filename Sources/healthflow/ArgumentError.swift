/// A refused command line: printed as one line on standard error, exit status 2 (``ExitCode/usage``).
///
/// The line is `healthflow COMMAND: DESCRIPTION; see 'SEE'`, where `SEE` is the command's help unless the
/// error names a better place to look (`healthflow example --list`).
struct ArgumentError: Error, CustomStringConvertible {
    let description: String
    /// The command line to run for help, when it is not the command's `--help`.
    let see: String?

    init(_ description: String, see: String? = nil) {
        self.description = description
        self.see = see
    }
}
