import Foundation
import HealthFlow

/// The smallest useful storage a third party could write: live objects in a dictionary, and every change in
/// an array. Nothing is indexed; each read scans.
struct DictionaryBackend: HealthStoreBackend {
    private var live: [UUID: (stored: StoredHealthSample, sequence: UInt64)] = [:]
    private var log: [HealthStoreChange] = []

    var lastSequence: UInt64 { log.last?.sequence ?? 0 }

    func sample(withUUID uuid: UUID) -> StoredHealthSample? {
        live[uuid]?.stored
    }

    func samples(of type: HealthObjectType, matching predicate: SamplePredicate?) -> [HealthSample] {
        live.values.sorted { $0.sequence < $1.sequence }.map(\.stored.sample).filter {
            $0.type == type && (predicate?.evaluate($0) ?? true)
        }
    }

    func changes(of type: HealthObjectType, after sequence: UInt64, limit: Int) -> [HealthStoreChange] {
        Array(
            log.lazy.filter { change in
                guard change.sequence > sequence, change.sample.type == type else { return false }
                return change.isDeletion || self.live[change.sample.uuid]?.sequence == change.sequence
            }
            .prefix(limit))
    }

    mutating func insert(_ objects: [StoredHealthSample]) throws {
        for object in objects {
            let change = HealthStoreChange(sequence: lastSequence + 1, sample: object.sample, isDeletion: false)
            log.append(change)
            live[object.sample.uuid] = (object, change.sequence)
        }
    }

    mutating func delete(_ objects: [HealthSample]) throws {
        for object in objects where live.removeValue(forKey: object.uuid) != nil {
            log.append(HealthStoreChange(sequence: lastSequence + 1, sample: object, isDeletion: true))
        }
    }
}
