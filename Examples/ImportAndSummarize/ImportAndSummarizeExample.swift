import ExampleSupport
import Foundation
import HealthExport
import HealthFlow

/// "Import and summarize": a person's Health export (a bundled week, in the real format) is imported into the
/// store — streamed, every record checked, nothing dropped silently — and the week is summarized from the store:
/// steps per day, heart rate, body mass. Import, then query: the workflow a service runs on an uploaded export.
public enum ImportAndSummarizeExample: HealthExample {
    /// `import-and-summarize`.
    public static let name = "import-and-summarize"
    /// What it shows.
    public static let summary = "import a Health export (a bundled week) and summarize the week from the store"

    /// Writes the bundled week to `<workDirectory>/apple_health_export/export.xml`, where every style imports it.
    public static func prepare(_ context: ExampleContext) async throws {
        let file = exportFile(of: context)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(SampleExport.xml.utf8).write(to: file)
    }

    /// Runs one style.
    public static func run(_ style: ExampleStyle, in context: ExampleContext) async -> ExampleOutcome {
        let path = exportFile(of: context).path
        switch style {
        case .callback:
            return await awaitCallback { importAndSummarizeWithCallbacks(path, in: context, completion: $0) }
        case .promise: return await awaitPromise(importAndSummarizeWithPromises(path, in: context))
        case .async: return await awaitAsync { try await importAndSummarizeAsync(path, in: context) }
        }
    }

    /// The export the example imports.
    public static func exportFile(of context: ExampleContext) -> URL {
        context.workDirectory.appendingPathComponent("apple_health_export/export.xml")
    }
}

/// The week summarized: the seven days before `now`'s day, in UTC.
struct SummaryWeek: Sendable {
    let start: Date
    let end: Date

    init(before now: Date) {
        end = utcCalendar.startOfDay(for: now)
        start = utcCalendar.date(byAdding: .day, value: -7, to: end) ?? end
    }

    var predicate: SamplePredicate { .samples(withStart: start, end: end) }
}

/// A day, for the step totals.
let oneDay = DateComponents(day: 1)

/// The import's own line: what was skipped and why (re-importing adds nothing, so this line is the same on
/// every run of the same export).
func importLine(_ report: HealthExportReport) -> String {
    let skips = report.skips.map { "line \($0.line): \($0.reason.rawValue)" }
    return "export of \(report.exportDate.map(formatDay) ?? "unknown date"): imported; "
        + (skips.isEmpty ? "nothing skipped" : "skipped \(skips.joined(separator: ", "))")
}

/// The summary's lines from the three answers of the store.
func summaryLines(
    import report: HealthExportReport, steps: StatisticsCollection, heartRate: HealthStatistics?,
    bodyMass: [HealthSample]
) -> [String] {
    let perDay = steps.statistics().map { day in
        let total = day.sumQuantity().flatMap { try? $0.doubleValue(for: .count()) } ?? 0
        return "\(formatDay(day.startDate).suffix(5)) \(Int(total.rounded()))"
    }
    let bpm = HealthUnit.count().unitDivided(by: .minute())
    let average = heartRate?.averageQuantity().flatMap { try? $0.doubleValue(for: bpm) }
    let latestMass = bodyMass.first.flatMap { sample -> String? in
        guard case .quantity(let mass) = sample else { return nil }
        return "\(mass.quantity) on \(formatDay(mass.endDate))"
    }
    return [
        importLine(report),
        "steps per day: " + perDay.joined(separator: " · "),
        "heart rate: " + (average.map { "average \(Int($0.rounded())) bpm" } ?? "no data"),
        "body mass: " + (latestMass.map { "latest \($0)" } ?? "no data"),
    ]
}

/// Newest first, the latest one only.
let latestFirst: [SampleSortDescriptor] = [.endDate(ascending: false)]
