import ExampleSupport
import FlowKit
import Foundation
import HealthExport
import HealthFlow
import ImportAndSummarizeExample
import Testing

@Suite(.timeLimit(.minutes(10))) struct ExerciseImportAndSummarizeTests {
    /// A folder of its own per test, removed at the end.
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("healthflow-import-\(UUID())")

        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }

        /// Writes an export of `count` records of `type` (one a minute from 2026-11-01), returns its path.
        func export(_ name: String, count: Int, type: String = "StepCount", unit: String = "count") throws -> String {
            var text = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE HealthData [
                <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
                ]>
                <HealthData locale="en_US">
                 <ExportDate value="2026-11-20 10:00:00 +0100"/>

                """
            let base = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01 00:00 UTC
            for index in 0..<count {
                let start = base.addingTimeInterval(Double(index) * 60)
                text += """
                     <Record type="HKQuantityTypeIdentifier\(type)" sourceName="Zoë’s iPhone" unit="\(unit)" \
                    startDate="\(Self.format(start))" endDate="\(Self.format(start.addingTimeInterval(60)))" \
                    value="\(60 + index % 40)"/>

                    """
            }
            text += "</HealthData>\n"
            let file = url.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            return file.path
        }

        static func format(_ date: Date) -> String {
            let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            return String(
                format: "%04d-%02d-%02d %02d:%02d:%02d +0000", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        }
    }

    @Test func exercise1ReportsRisingProgressThatEndsAtOne() async throws {
        let folder = try Folder()
        let path = try folder.export("export.xml", count: 9_000)
        let store = ExampleContext.embedded().store
        let fractions = LockedState<[Double]>([])
        let report = try await answers.importReportingProgress(path, into: store) { fraction in
            fractions.withLock { $0.append(fraction) }
        }
        let seen = fractions.withLock { $0 }
        #expect(seen.count >= 2, "progress should be reported while the import runs, not only at the end: \(seen)")
        #expect(seen == seen.sorted(), "progress must never go back: \(seen)")
        #expect(seen.allSatisfy { (0...1).contains($0) }, "a fraction is between 0 and 1: \(seen)")
        #expect(seen.last == 1, "the last progress report must be exactly 1 (the whole file read): \(seen)")
        #expect(report.importedCount == 9_000, "return the import's own report")
        #expect(try await store.samples(of: .stepCount).count == 9_000, "the records must be in the store")
    }

    @Test func exercise1ThrowsTheImportsError() async throws {
        let store = ExampleContext.embedded().store
        await #expect(throws: HealthExportError.self, "a missing file must throw the import's typed error") {
            _ = try await answers.importReportingProgress("/nonexistent/export.xml", into: store) { _ in }
        }
    }

    @Test func exercise2ImportsEachExportInOrder() async throws {
        let folder = try Folder()
        let steps = try folder.export("steps.xml", count: 30)
        let heart = try folder.export("heart.xml", count: 20, type: "HeartRate", unit: "count/min")
        let store = ExampleContext.embedded().store
        let reports = try await answers.importInOrder([steps, heart], into: store).value
        #expect(reports.map(\.importedCount) == [30, 20], "one report per export, in the order of the paths")
        #expect(try await store.samples(of: .heartRate).count == 20)
        #expect(try await answers.importInOrder([], into: store).value.isEmpty, "no paths: no reports, no error")
    }

    @Test func exercise2StopsAtTheFirstFailureAndKeepsWhatCameBefore() async throws {
        let folder = try Folder()
        let steps = try folder.export("steps.xml", count: 30)
        let heart = try folder.export("heart.xml", count: 20, type: "HeartRate", unit: "count/min")
        let store = ExampleContext.embedded().store
        let series = answers.importInOrder(
            [steps, folder.url.appendingPathComponent("missing.xml").path, heart], into: store)
        await #expect(throws: HealthExportError.self, "the missing file's error must reject the series") {
            _ = try await series.value
        }
        #expect(try await store.samples(of: .stepCount).count == 30, "what the first export stored stays")
        #expect(
            try await store.samples(of: .heartRate).isEmpty,
            "no import may start after a failure (and none before the one ahead of it ended)")
    }
}
