/// `healthflow demo`: every health workflow end to end on the embedded store (``HealthDemo``).
struct DemoCommand: Command {
    let name = "demo"
    let summary =
        "Run every health workflow end to end on the embedded store over a generated year of data, each step "
        + "printed with its style and duration. Needs no setup, no server."
    let usage = ["[--data DIR [--repair] | --in-memory]"]
    let discussion = """
        Runs every health workflow end to end over a generated year of one person's data: authorize → check
        status → write → fetch → statistics → activity rings → an operation graph of parallel steps. Each step
        prints its style (callback, promise, async, graph), its duration and its result.

        The store is durable and lives in a per-user folder: $HEALTHFLOW_DATA if set, else
        $XDG_DATA_HOME/healthflow (~/.local/share/healthflow), or ~/Library/Application Support/HealthFlow on
        Apple platforms. The first run generates and stores the year; later runs reopen it. A new folder gets the
        disk-backed store (segments + log, bounded memory); a folder made by an earlier version keeps its journal
        store (journal + snapshots). Folders are used byte for byte, so one whose name is not UTF-8 is the one
        written to.
        """
    let options = DataLocation.options
    let failsWhen = "a step fails or the store cannot be opened or seeded"

    func run(_ arguments: ParsedArguments) async throws(ArgumentError) -> ExitCode {
        let location = try DataLocation.parse(arguments)
        let passed = await HealthDemo(output: StandardOutput(), location: location).run()
        print("\n" + SourceGuide.demoCode + "\n" + SourceGuide.afterDemo)
        return passed ? .success : .failure
    }
}
