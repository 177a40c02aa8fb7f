import FlowKit

/// Immutable storage objects made once per distinct key and kept for the life of the process, so that the values
/// holding them can do so without reference counting (``SharedStorage``).
///
/// A value shared by every sample of a type — a unit, a source — is copied with each sample from the thread that
/// reads it to the threads that check and store it. Were it reference counted, every copy would change one counter
/// from all those threads at once, and the counter's cache line would move between the cores at each change. An
/// interned object has no count to change.
///
/// The table keeps at most `limit` objects. Past that, ``storage(for:make:)`` gives the caller an object of its
/// own, reference counted as usual: input with endless distinct values (units with any molar mass, sources with
/// any name) costs memory only while those values live.
final class InternTable<Key: Hashable & Sendable, Object: AnyObject & Sendable>: Sendable {
    private let objects = LockedState([Key: Object]())
    private let limit: Int

    /// - Parameter limit: The most objects the table keeps.
    init(limit: Int) {
        self.limit = limit
    }

    /// The interned object for `key`, made by `make` the first time; an owned one made by `make` once the table
    /// is full and holds none for `key`.
    /// - Complexity: One hash of `key`, under the table's lock.
    func storage(for key: Key, make: () -> Object) -> SharedStorage<Object> {
        let interned = objects.withLock { objects -> Object? in
            if let known = objects[key] { return known }
            guard objects.count < limit else { return nil }
            let made = make()
            objects[key] = made
            return made
        }
        guard let interned else { return SharedStorage(owned: make()) }
        return SharedStorage(interned: interned)
    }
}

/// A reference to immutable storage that copies without reference counting when the storage is interned
/// (``InternTable``, which keeps it for the life of the process), and holds it strongly otherwise.
struct SharedStorage<Object: AnyObject & Sendable>: Sendable {
    /// The storage; valid while this value lives: the table or ``owner`` keeps it.
    unowned(unsafe) let object: Object
    /// The storage when it is not interned, `nil` when it is (a copy then retains nothing).
    private let owner: Object?

    fileprivate init(interned object: Object) {
        self.object = object
        owner = nil
    }

    fileprivate init(owned object: Object) {
        self.object = object
        owner = object
    }

    /// Whether both refer to the very same storage: O(1).
    func isIdentical(to other: SharedStorage) -> Bool { object === other.object }

    /// Whether the storage is interned: two interned storages of equal keys are the same object.
    var isInterned: Bool { owner == nil }
}
