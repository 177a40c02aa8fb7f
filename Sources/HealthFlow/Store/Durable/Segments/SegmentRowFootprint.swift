/// An estimate of the memory a memtable row holds: a fixed allowance for the sample's fields and keys, plus what
/// grows with it — its metadata entries (with the UTF-8 of their keys and string values), a correlation's members,
/// a workout's events, activities and statistics, and a series held beside it (its encoded size: an ECG's ~240 KB).
/// Type, unit and source are shared between samples and not counted. Found in O(size of the sample) without
/// encoding it: no hashing, no allocation.
enum SegmentRowFootprint {
    /// The fixed allowance of a row: the sample's fields, its keys and the memtable's slot.
    static let row = 160
    /// One metadata entry, beside the UTF-8 of its key and of a string value.
    static let metadataEntry = 32
    /// One workout event, statistics entry or activity, beside their metadata.
    static let workoutPart = 64

    /// The estimate for `row`: its sample's, plus the series it holds in memory.
    static func bytes(of row: SegmentRow) -> Int {
        bytes(of: row.entry.sample) + (row.series?.heldBytes ?? 0)
    }

    /// The estimate for a row holding `sample`.
    static func bytes(of sample: HealthSample) -> Int {
        switch sample {
        case .quantity(let sample): row + bytes(of: sample.metadata)
        case .category(let sample): row + bytes(of: sample.metadata)
        case .correlation(let sample):
            sample.objects.reduce(row + bytes(of: sample.metadata)) { $0 + row + bytes(of: $1.metadata) }
        case .electrocardiogram(let sample): row + bytes(of: sample.metadata)
        case .heartbeatSeries(let sample): row + bytes(of: sample.metadata)
        case .workout(let sample):
            row + bytes(of: sample.metadata) + bytes(of: sample.events)
                + workoutPart * sample.statistics.count
                + sample.activities.reduce(0) {
                    $0 + workoutPart * (1 + $1.statistics.count) + bytes(of: $1.metadata) + bytes(of: $1.events)
                }
        }
    }

    private static func bytes(of events: [HealthWorkout.Event]) -> Int {
        events.reduce(0) { $0 + workoutPart + bytes(of: $1.metadata) }
    }

    private static func bytes(of metadata: [MetadataKey: MetadataValue]) -> Int {
        metadata.reduce(0) { total, entry in
            let value =
                switch entry.value {
                case .string(let string): string.utf8.count
                case .number, .date, .quantity: 0
                }
            return total + metadataEntry + entry.key.rawValue.utf8.count + value
        }
    }
}
