import Foundation

/// The first record of every journal and snapshot: which generation the file is and which app wrote it.
///
/// ```text
/// header = generation:u64 appBundleIdentifier:str
/// ```
struct StoreFileHeader: Equatable {
    let generation: UInt64
    let appBundleIdentifier: String

    func encoded() -> [UInt8] {
        var writer = BinaryWriter()
        writer.uint64(generation)
        writer.string(appBundleIdentifier)
        return writer.bytes
    }

    init(generation: UInt64, appBundleIdentifier: String) {
        self.generation = generation
        self.appBundleIdentifier = appBundleIdentifier
    }

    init(from reader: inout BinaryReader) throws(BinaryReader.Failure) {
        generation = try reader.uint64()
        appBundleIdentifier = try reader.string()
        try reader.expectEnd()
    }
}

/// Journal records: one ``StoreMutation`` each.
///
/// ```text
/// insert        = count:varint sample*                     (SampleCodec)
/// delete        = count:varint uuid:16*
/// authorization = requestShare:types requestRead:types allowedShare:types allowedRead:types
/// types         = count:varint identifier:str*             (ascending)
/// ```
enum MutationCodec {
    static func encode(_ mutation: StoreMutation) -> (kind: RecordKind, payload: [UInt8]) {
        switch mutation {
        case .insert(let samples):
            var writer = BinaryWriter(capacity: 128 * samples.count)
            writer.count(samples.count)
            for sample in samples { SampleCodec.encode(sample, into: &writer) }
            return (.insert, writer.bytes)
        case .delete(let uuids):
            var writer = BinaryWriter(capacity: 4 + 16 * uuids.count)
            writer.count(uuids.count)
            for uuid in uuids { writer.uuid(uuid) }
            return (.delete, writer.bytes)
        case .authorization(let share, let read, let request):
            var writer = BinaryWriter()
            for types in [request.share, request.read, share, read] { encodeTypes(types, into: &writer) }
            return (.authorization, writer.bytes)
        }
    }

    static func decode(
        kind: RecordKind, from reader: inout BinaryReader, samples decoder: inout SampleDecoder
    ) throws(BinaryReader.Failure) -> StoreMutation {
        let mutation: StoreMutation
        switch kind {
        case .insert:
            let count = try reader.count(minimumSize: 40)
            var samples: [HealthSample] = []
            samples.reserveCapacity(count)
            for _ in 0..<count { samples.append(try decoder.sample(from: &reader)) }
            mutation = .insert(samples)
        case .delete:
            let count = try reader.count(minimumSize: 16)
            var uuids: [UUID] = []
            uuids.reserveCapacity(count)
            for _ in 0..<count { uuids.append(try reader.uuid()) }
            mutation = .delete(uuids)
        case .authorization:
            let requestShare = try decodeTypes(from: &reader, decoder: &decoder)
            let requestRead = try decodeTypes(from: &reader, decoder: &decoder)
            let share = try decodeTypes(from: &reader, decoder: &decoder)
            let read = try decodeTypes(from: &reader, decoder: &decoder)
            mutation = .authorization(
                share: share, read: read, request: AuthorizationRequest(share: requestShare, read: requestRead))
        default:
            throw BinaryReader.Failure(reason: "a journal does not hold \(kind) records")
        }
        try reader.expectEnd()
        return mutation
    }

    static func encodeTypes(_ types: Set<HealthObjectType>, into writer: inout BinaryWriter) {
        writer.count(types.count)
        for type in types.sorted(by: { $0.identifier < $1.identifier }) { writer.string(type.identifier) }
    }

    static func decodeTypes(
        from reader: inout BinaryReader, decoder: inout SampleDecoder
    ) throws(BinaryReader.Failure) -> Set<HealthObjectType> {
        let count = try reader.count()
        var types = Set<HealthObjectType>(minimumCapacity: count)
        for _ in 0..<count { types.insert(try decoder.type(from: &reader)) }
        return types
    }
}
