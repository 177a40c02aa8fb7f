import Foundation

/// Where an anchored query left off — the counterpart of `HKQueryAnchor`.
///
/// Opaque apart from its order: every change a store records gets the next number, and an anchor is the
/// number of the last change a query reported (or looked past). Successive anchors from one store never
/// decrease. Anchors are `Codable`, so a sync client can persist one and resume after a restart.
///
/// A store that bridges to another database (`HealthKitStore` over HealthKit) also keeps that database's own
/// anchor in the anchor, as opaque bytes, so it can resume from a persisted anchor in a later launch. Such an
/// anchor encodes as `{"sequence": 42, "opaque": "<base64>"}`; every other anchor as the bare number `42`.
///
/// ```swift
/// let first = try await store.changes(of: .stepCount, since: nil, limit: 2)
/// let saved = try JSONEncoder().encode(first.newAnchor)  // a bare number
/// // after a relaunch
/// let anchor = try JSONDecoder().decode(HealthQueryAnchor.self, from: saved)
/// let rest = try await store.changes(of: .stepCount, since: anchor)  // nothing repeated, nothing skipped
/// ```
public struct HealthQueryAnchor: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    package let sequence: UInt64
    /// A bridge store's own anchor, archived (`nil` for HealthFlow's stores).
    package let opaque: Data?

    package init(sequence: UInt64, opaque: Data? = nil) {
        self.sequence = sequence
        self.opaque = opaque
    }

    private enum CodingKeys: String, CodingKey {
        case sequence, opaque
    }

    /// Whether `lhs` comes before `rhs` (it reports fewer changes).
    ///
    /// - Parameters:
    ///   - lhs: One anchor.
    ///   - rhs: Another anchor from the same store.
    /// - Returns: `true` when `lhs` is earlier.
    public static func < (lhs: HealthQueryAnchor, rhs: HealthQueryAnchor) -> Bool {
        lhs.sequence < rhs.sequence
    }

    /// Decodes an anchor from a single number, or from a `sequence` and base64 `opaque` pair.
    ///
    /// - Throws: `DecodingError` unless the value is a non-negative integer, or an object with a non-negative
    ///   integer `sequence` and a base64 string `opaque`.
    public init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
            self.init(sequence: try decoder.singleValueContainer().decode(UInt64.self))
            return
        }
        let text = try container.decode(String.self, forKey: .opaque)
        guard let opaque = Data(base64Encoded: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .opaque, in: container, debugDescription: "opaque is not base64")
        }
        self.init(sequence: try container.decode(UInt64.self, forKey: .sequence), opaque: opaque)
    }

    /// Encodes the anchor as a single number, or as a `sequence` and base64 `opaque` pair when a bridge store
    /// keeps its own anchor in it.
    ///
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        guard let opaque else {
            var container = encoder.singleValueContainer()
            return try container.encode(sequence)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(opaque.base64EncodedString(), forKey: .opaque)
    }

    /// `anchor(42)`.
    public var description: String { "anchor(\(sequence))" }
}

/// What an anchored query reports: samples added and objects deleted since an anchor, and the anchor to
/// resume from. The promise and async twins of ``HealthStore`` return it.
public struct HealthAnchoredChanges: Hashable, Sendable {
    /// Samples added since the anchor, in the order the store recorded them.
    public let samples: [HealthSample]
    /// Tombstones of objects deleted since the anchor, in the order the store recorded them.
    public let deletedObjects: [HealthDeletedObject]
    /// The anchor to pass next time.
    public let newAnchor: HealthQueryAnchor

    /// Makes a result.
    ///
    /// - Parameters:
    ///   - samples: Samples added.
    ///   - deletedObjects: Tombstones.
    ///   - newAnchor: The anchor to resume from.
    public init(samples: [HealthSample], deletedObjects: [HealthDeletedObject], newAnchor: HealthQueryAnchor) {
        self.samples = samples
        self.deletedObjects = deletedObjects
        self.newAnchor = newAnchor
    }
}
