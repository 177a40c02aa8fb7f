import Foundation

/// The receiver's `GET /stats`: totals over the batches it stored.
public struct ReceiverStats: Decodable, Hashable, Sendable {
    /// Batches stored (each idempotency key once).
    public var batches: Int
    /// Uploads answered as duplicates (a key seen before).
    public var duplicates: Int
    /// Uploads refused (400/415) or broken off mid-body.
    public var rejected: Int
    /// Samples counted, every arrival.
    public var samples: Int
    /// Distinct sample UUIDs counted.
    public var distinctSamples: Int
    /// The most times any one sample UUID was counted (1 when nothing was counted twice; 0 when empty).
    public var maxCountPerSample: Int
    /// Deletions counted.
    public var deletions: Int
    /// Samples counted, by type identifier.
    public var samplesByType: [String: Int]
}

/// What the receiver answered for one stored batch (`201`, or `200` with `duplicate` for a repeated key).
public struct ReceiverReceipt: Decodable, Hashable, Sendable {
    /// The batch ID from the document.
    public var batchID: String
    /// Whether the key had been seen before.
    public var duplicate: Bool
    /// Samples by type identifier.
    public var samples: [String: Int]
    /// Deletions by type identifier.
    public var deletions: [String: Int]
    /// The UUIDs of the samples, in document order.
    public var sampleUUIDs: [String]
    /// The UUIDs of the deletions, in document order.
    public var deletedUUIDs: [String]
}

/// A raw answer from `POST /upload`: the status and the JSON body.
public struct ReceiverAnswer: Sendable {
    /// The HTTP status.
    public var status: Int
    /// The raw JSON body.
    public var body: Data

    /// The receipt in the body (for 200 and 201).
    public func receipt() throws -> ReceiverReceipt {
        try JSONDecoder().decode(ReceiverReceipt.self, from: body)
    }

    /// The `error` message in the body (for refusals), or `nil`.
    public var error: String? {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["error"] as? String
    }
}
