/// `healthflow tour`: the FlowKit tour (``FlowKitTour``).
struct TourCommand: Command {
    let name = "tour"
    let summary =
        "The FlowKit tour: one health task as nested callbacks, as a promise chain and with async/await, then "
        + "fan-out, retries, timeouts and cancellation."
    let usage: [String] = []
    let discussion = """
        The FlowKit tour: one health task as nested callbacks, as a promise chain and with async/await, then
        fan-out, retries with back-off, timeouts and cancellation, each step printed with its style, duration and
        outcome. Needs no store and no server.
        """
    let options: [CommandOption] = []
    let failsWhen = "a step did not behave as expected"

    func run(_ arguments: ParsedArguments) async throws(ArgumentError) -> ExitCode {
        let passed = await FlowKitTour(output: StandardOutput()).run()
        print("\n" + SourceGuide.tourCode + "\n" + SourceGuide.afterTour)
        return passed ? .success : .failure
    }
}
