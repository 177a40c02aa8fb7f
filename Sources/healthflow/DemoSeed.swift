import FlowKit
import Foundation
import HealthFlow

/// The demo's data: a generated year of one person (fixed seed and dates, so every run prints the same), stored
/// once into a store without any sample — one rule for `demo` and `sync` (``DemoStore``).
///
/// Seeding is one logical step. The year is one change (written as bounded records in one write and one flush),
/// so a store holds all of it or none: an interrupted or failed seeding (a kill, a full disk) leaves no sample,
/// and a store without any sample is seeded again by the next run. Other writes (authorization answers) do not
/// count: only samples do.
enum DemoSeed {
    /// The generated year.
    static func year() throws -> GeneratedHealthData {
        let today = HealthDemo.calendar.startOfDay(for: HealthDemo.now)
        let start = HealthDemo.calendar.date(byAdding: .day, value: -365, to: today) ?? today
        return try HealthDataGenerator(
            configuration: GeneratorConfiguration(
                days: 365, seed: HealthDemo.seed, startDate: start, calendar: HealthDemo.calendar)
        ).generate()
    }

    /// Whether `store` has never held a sample, so it needs the year.
    static func needsSeeding(_ store: any HealthChangeHistory) -> Bool {
        store.lastChangeSequence == 0
    }

    /// Stores `year` in `opened` as one change, then settles it (``OpenedStore/settle()``: reopening then reads
    /// it fastest). Throws the store's error when the year could not be stored (nothing of it is then kept), or
    /// the settling's (the store then holds the year).
    static func seed(_ opened: OpenedStore, with year: GeneratedHealthData) throws {
        switch opened {
        case .journal(let file): try file.ingest(year.allSamples())
        case .segments(let backed, _): try backed.ingest(year.allSamples())
        }
        try opened.settle()
    }
}
