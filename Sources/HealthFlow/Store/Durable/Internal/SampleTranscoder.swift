import Foundation

/// Copies one sample in ``SampleCodec``'s form from one payload into another without decoding it into a
/// ``HealthSample``: every field as it is, each string through the writer's own table (two payloads' tables
/// differ). A merge of segments copies its rows this way; the bytes written equal what encoding the decoded
/// sample would write.
///
/// It checks the form (the kind, counts and lengths within the payload, strings as UTF-8), not the sample's
/// rules: its input is a checksummed block the store wrote from a valid sample.
enum SampleTranscoder {
    /// What the copy read of the sample's keys.
    struct Copied {
        /// `nil` for a kind whose type is fixed (ECG, workout, heartbeat series).
        let typeIdentifier: String?
        /// That fixed type, `nil` for the other kinds.
        let fixedType: HealthObjectType?
        let start: Double
        let end: Double
    }

    typealias Failure = BinaryReader.Failure

    /// Copies the sample at `reader`'s position into `writer`.
    /// - Complexity: O(the sample's encoded size).
    static func copy(from reader: inout BinaryReader, into writer: inout BinaryWriter) throws(Failure) -> Copied {
        let kind = try reader.byte()
        writer.byte(kind)
        switch kind {
        case 1:
            let common = try copyCommon(&reader, &writer, hasType: true)
            try copyQuantity(&reader, &writer)
            return common
        case 2:
            let common = try copyCommon(&reader, &writer, hasType: true)
            writer.signed(try reader.signed())
            return common
        case 3:
            let common = try copyCommon(&reader, &writer, hasType: true)
            let members = try reader.count(minimumSize: 40)
            writer.count(members)
            for _ in 0..<members {
                _ = try copyCommon(&reader, &writer, hasType: true)
                try copyQuantity(&reader, &writer)
            }
            return common
        case 4:
            let common = try copyCommon(&reader, &writer, hasType: false, fixedType: .electrocardiogram)
            writer.signed(try reader.signed())
            writer.signed(try reader.signed())
            try copyOptionalQuantities(&reader, &writer, bits: 2)
            writer.count(try reader.integer())
            return common
        case 5:
            let common = try copyCommon(&reader, &writer, hasType: false, fixedType: .workout)
            writer.string(try reader.string())
            writer.double(try reader.double())
            try copyOptionalQuantities(&reader, &writer, bits: 4)
            try copyEvents(&reader, &writer)
            let activities = try reader.count(minimumSize: 36)
            writer.count(activities)
            for _ in 0..<activities {
                writer.uuid(try reader.uuid())
                writer.string(try reader.string())
                writer.double(try reader.double())
                writer.double(try reader.double())
                try copyMetadata(&reader, &writer)
                try copyEvents(&reader, &writer)
                try copyStatistics(&reader, &writer)
            }
            try copyStatistics(&reader, &writer)
            return common
        case 6:
            let common = try copyCommon(&reader, &writer, hasType: false, fixedType: .heartbeatSeries)
            writer.count(try reader.integer())
            return common
        default:
            throw Failure(reason: "unknown sample kind \(kind)")
        }
    }

    private static func copyCommon(
        _ reader: inout BinaryReader, _ writer: inout BinaryWriter, hasType: Bool, fixedType: HealthObjectType? = nil
    ) throws(Failure) -> Copied {
        writer.uuid(try reader.uuid())
        var type: String?
        if hasType {
            let identifier = try reader.string()
            writer.string(identifier)
            type = identifier
        }
        let start = try reader.double()
        let end = try reader.double()
        writer.double(start)
        writer.double(end)
        // The source: its bundle identifier, then its name.
        writer.string(try reader.string())
        writer.string(try reader.string())
        try copyMetadata(&reader, &writer)
        return Copied(typeIdentifier: type, fixedType: fixedType, start: start, end: end)
    }

    private static func copyQuantity(_ reader: inout BinaryReader, _ writer: inout BinaryWriter) throws(Failure) {
        writer.double(try reader.double())
        writer.string(try reader.string())
    }

    /// A presence byte whose low `bits` bits may be set, and the quantities it says are present.
    private static func copyOptionalQuantities(
        _ reader: inout BinaryReader, _ writer: inout BinaryWriter, bits: Int
    ) throws(Failure) {
        let present = try reader.byte()
        guard present >> bits == 0 else { throw Failure(reason: "a presence byte names an unknown field") }
        writer.byte(present)
        for bit in 0..<bits where present & (1 << bit) != 0 { try copyQuantity(&reader, &writer) }
    }

    private static func copyMetadata(_ reader: inout BinaryReader, _ writer: inout BinaryWriter) throws(Failure) {
        let count = try reader.count(minimumSize: 3)
        writer.count(count)
        for _ in 0..<count {
            writer.string(try reader.string())
            let tag = try reader.byte()
            writer.byte(tag)
            switch tag {
            case 1: writer.string(try reader.string())
            case 2, 3: writer.double(try reader.double())
            case 4: try copyQuantity(&reader, &writer)
            default: throw Failure(reason: "unknown metadata value kind \(tag)")
            }
        }
    }

    private static func copyEvents(_ reader: inout BinaryReader, _ writer: inout BinaryWriter) throws(Failure) {
        let count = try reader.count(minimumSize: 18)
        writer.count(count)
        for _ in 0..<count {
            writer.signed(try reader.signed())
            writer.double(try reader.double())
            writer.double(try reader.double())
            try copyMetadata(&reader, &writer)
        }
    }

    private static func copyStatistics(_ reader: inout BinaryReader, _ writer: inout BinaryWriter) throws(Failure) {
        let count = try reader.count(minimumSize: 18)
        writer.count(count)
        for _ in 0..<count {
            writer.string(try reader.string())
            writer.double(try reader.double())
            writer.double(try reader.double())
            try copyOptionalQuantities(&reader, &writer, bits: 4)
        }
    }
}
