import Foundation
import Testing

/// `healthflow import` stores an export's workouts and says so; `healthflow sync` on the imported store sends them.
@Suite struct WorkoutImportCommandTests {
    /// `ImportCommandTests.export` (a step count, a heart rate and a heart rate in kg) with a walk that names a route.
    static let export = ImportCommandTests.export.replacingOccurrences(
        of: "</HealthData>",
        with: """
             <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="30" durationUnit="min" sourceName="Zoë’s Watch" startDate="2024-03-01 11:00:00 -0800" endDate="2024-03-01 11:30:00 -0800">
              <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-03-01 11:10:00 -0800"/>
              <WorkoutRoute sourceName="Zoë’s Watch" startDate="2024-03-01 11:00:00 -0800" endDate="2024-03-01 11:30:00 -0800">
               <FileReference path="/workout-routes/route_2024-03-01_11.30am.gpx"/>
              </WorkoutRoute>
             </Workout>
            </HealthData>
            """)

    @Test func importStoresWorkoutsAndSyncSendsThem() async throws {
        let folder = try ImportCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("export.xml")
        try Data(Self.export.utf8).write(to: path)
        let data = folder.appendingPathComponent("data").path

        let imported = try await HealthFlowCommandTests.healthflow("import", path.path, "--data", data)
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output.contains("imported 3 samples"), "\(imported.output)")
        #expect(imported.output.contains("workout"), "\(imported.output)")
        #expect(
            imported.output.contains(
                "workout route files named, not read (their paths kept in the workouts' metadata): 1"),
            "\(imported.output)")

        let outbox = folder.appendingPathComponent("outbox").path
        let synced = try await HealthFlowCommandTests.healthflow("sync", "--to", outbox, "--data", data)
        #expect(synced.status == 0, "\(synced.errors)")
        #expect(synced.output.contains("sent 3 samples and 0 deletions of 3 types"), "\(synced.output)")
    }
}
