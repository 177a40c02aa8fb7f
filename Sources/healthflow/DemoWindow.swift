import ExampleSupport
import Foundation
import HealthExport
import HealthFlow

/// Which days the demo's workflows look at.
///
/// On the generated year, the days before its fixed "now" (so every run prints the same). On a store that holds
/// an imported Health export, the days before the export's last step or heart-rate record: the workflows then
/// show the person's own last week and month, whatever year the export ends in.
struct DemoWindow: Sendable {
    /// The demo's "now": the fixed one, or 09:00 UTC of the day after the export's last record.
    let now: Date
    /// When the export's last step or heart-rate record ends, if the store holds an imported export.
    let importedUntil: Date?

    /// Reads the store's latest step and heart-rate samples (the demo must be allowed to read them first).
    static func find(in store: any HealthStore, calendar: Calendar, fixedNow: Date) async -> DemoWindow {
        let exportedPrefix = HealthSource.exported(name: "").bundleIdentifier
        var latest: Date?
        for type in [HealthObjectType.stepCount, .heartRate] {
            let newest = try? await store.samples(of: type, sortedBy: [.endDate(ascending: false)], limit: 1)
            guard let sample = newest?.first, sample.source.bundleIdentifier.hasPrefix(exportedPrefix) else { continue }
            latest = max(latest ?? sample.endDate, sample.endDate)
        }
        guard let latest else { return DemoWindow(now: fixedNow, importedUntil: nil) }
        let nextDay = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: latest)) ?? latest
        return DemoWindow(now: nextDay.addingTimeInterval(9 * 3600), importedUntil: latest)
    }

    /// What the demo says about the window on an imported store; `nil` on the generated year.
    var note: String? {
        guard let importedUntil else { return nil }
        return "           (an imported export: its last step or heart-rate record ends \(formatDay(importedUntil)), "
            + "so the workflows look at the days before \(formatDay(now)); nothing is written into it)"
    }
}
