import HealthExport

/// The table `healthflow import` prints when it is done.
enum ImportSummary {
    static func print(_ report: HealthExportReport, store: String) {
        let rate = report.duration > 0 ? Double(report.xmlBytes) / report.duration : 0
        let perSecond = report.duration > 0 ? Double(report.importedCount) / report.duration : 0
        Swift.print(
            "imported \(grouped(report.importedCount)) samples from \(grouped(report.lines)) lines in "
                + "\(String(format: "%.2f", report.duration)) s "
                + "(\(ImportProgressDisplay.megabytes(Int64(rate)))/s of export.xml, \(grouped(rounding: perSecond)) samples/s)"
        )
        table("samples imported", report.imported)
        if report.voltageMeasurements > 0 {
            Swift.print("ECG voltage measurements stored with their ECGs: \(grouped(report.voltageMeasurements))")
        }
        if report.electrocardiogramsWithoutVoltages > 0 {
            Swift.print(
                "ECGs stored without their voltages (the store keeps none): "
                    + grouped(report.electrocardiogramsWithoutVoltages))
        }
        if report.heartbeats > 0 {
            Swift.print("heartbeats stored with their heartbeat series: \(grouped(report.heartbeats))")
        }
        if report.heartbeatSeriesWithoutBeats > 0 {
            Swift.print(
                "heartbeat series stored without their beats (the store keeps none): "
                    + grouped(report.heartbeatSeriesWithoutBeats))
        }
        if report.alreadyInStore > 0 {
            Swift.print("already in the store (imported before): \(grouped(report.alreadyInStore))")
        }
        if report.correlationMembersMerged > 0 {
            Swift.print(
                "correlation members listed twice, stored once: \(grouped(report.correlationMembersMerged))")
        }
        if report.repeatedInExport > 0 {
            Swift.print("records repeated within the export, stored once: \(grouped(report.repeatedInExport))")
        }
        table("skipped", Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.key.rawValue, $0.value) }))
        if report.skippedCount > 0, let path = report.skipReportPath {
            Swift.print("every skipped record, ECG file or route file, with its line: \(path)")
        }
        if report.workoutRouteFiles > 0 {
            let notKept = report.workoutRoutesNotKept
            Swift.print(
                "workout routes: \(grouped(report.workoutRoutes)) stored with their workouts "
                    + "(\(grouped(report.routeLocations)) locations) of "
                    + "\(grouped(report.workoutRouteFiles)) route files named"
                    + (notKept > 0 ? "; \(grouped(notKept)) read but not kept (the store keeps no routes)" : ""))
        }
        Swift.print(
            "not samples, kept in the report only: \(grouped(report.activitySummaries.count)) activity summaries"
                + (report.characteristics == nil ? "" : ", the person's characteristics"))
        table("types the health model does not hold (not stored)", report.unknownTypes)
        table("elements and attributes not mapped", report.unmappedElements)
        Swift.print("next: healthflow demo --data \(store)")
    }

    private static func table(_ title: String, _ counts: [String: Int]) {
        guard !counts.isEmpty else { return }
        Swift.print("\(title):")
        let width = counts.keys.map(\.count).max() ?? 0
        for (name, count) in counts.sorted(by: { $0.value == $1.value ? $0.key < $1.key : $0.value > $1.value }) {
            let number = grouped(count)
            Swift.print(
                "  " + name + String(repeating: " ", count: width - name.count + 2)
                    + String(repeating: " ", count: max(0, 12 - number.count)) + number)
        }
    }
}
