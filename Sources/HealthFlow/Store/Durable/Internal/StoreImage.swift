import Foundation

/// A consistent copy of a store's data, taken under the store's lock in O(number of types) — the arrays
/// and dictionaries are copy-on-write, so the store goes on changing its own copy (paying for the copy of
/// whatever it changes first) while a snapshot is written from this one without the lock.
struct StoreImage: Sendable {
    /// One type's index and the type it belongs to, in slot order.
    struct Section: Sendable {
        let type: HealthObjectType
        let index: TypeIndex
    }

    let appBundleIdentifier: String
    let storeID: UUID
    let authorization: AuthorizationTable
    let sequence: UInt64
    let sections: [Section]
    let locations: UUIDTable<StoreState.Location>
    let correlations: UUIDTable<UUID>
    let series: [UUID: HealthSampleSeries]

    init(_ state: StoreState) {
        appBundleIdentifier = state.appBundleIdentifier
        storeID = state.storeID
        authorization = state.authorization
        sequence = state.sequence
        var types = [HealthObjectType?](repeating: nil, count: state.indexes.count)
        for (type, slot) in state.slots where slot < types.count { types[slot] = type }
        sections = zip(types, state.indexes).compactMap { type, index in
            type.map { Section(type: $0, index: index) }
        }
        locations = state.locations
        correlations = state.correlations
        series = state.series
    }

    /// The live entry a type's addition log names, with the correlation holding it, or `nil` when that
    /// addition was deleted since.
    func liveEntry(slot: Int, sequence: UInt64, uuid: UUIDKey) -> (entry: IndexedSample, correlation: UUID?)? {
        guard let location = locations[uuid], location.slot == slot, location.sequence == sequence else { return nil }
        let index = sections[slot].index
        guard let position = index.position(start: location.start, sequence: sequence) else { return nil }
        return (index.entries[position], correlations[uuid])
    }
}

extension StoreEngine {
    /// A copy of the store's data (snapshots are written from it; tests compare stores with it).
    var image: StoreImage {
        withLockedState { StoreImage($0) }
    }
}
