import Foundation
import Testing

/// `healthflow import` stores an export's workouts and says so; `healthflow sync` on the imported store sends them.
@Suite struct WorkoutImportCommandTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
        <!ATTLIST HealthData locale CDATA #REQUIRED>
        ]>
        <HealthData locale="en_US">
         <ExportDate value="2024-03-02 09:00:00 -0800"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" unit="count" startDate="2024-03-01 10:00:00 -0800" endDate="2024-03-01 10:05:00 -0800" value="120"/>
         <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="30" durationUnit="min" sourceName="Zoë’s Watch" startDate="2024-03-01 11:00:00 -0800" endDate="2024-03-01 11:30:00 -0800">
          <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-03-01 11:10:00 -0800"/>
          <WorkoutRoute sourceName="Zoë’s Watch" startDate="2024-03-01 11:00:00 -0800" endDate="2024-03-01 11:30:00 -0800">
           <FileReference path="/workout-routes/route_2024-03-01_11.30am.gpx"/>
          </WorkoutRoute>
         </Workout>
        </HealthData>

        """

    @Test func importStoresWorkoutsAndSyncSendsThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "healthflow-workouts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("export.xml")
        try Data(Self.export.utf8).write(to: path)
        let data = folder.appendingPathComponent("data").path

        let imported = try await HealthFlowCommandTests.healthflow("import", path.path, "--data", data)
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output.contains("imported 2 samples"), "\(imported.output)")
        #expect(imported.output.contains("workout"), "\(imported.output)")
        #expect(
            imported.output.contains(
                "workout route files named, not read (their paths kept in the workouts' metadata): 1"),
            "\(imported.output)")

        let outbox = folder.appendingPathComponent("outbox").path
        let synced = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data)
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.contains("sent 2 samples and 0 deletions of 2 types"), "\(synced.output)")
    }
}
