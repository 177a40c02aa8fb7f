/// A string that names no value of the type being decoded; `description` says why.
struct UnparsableString: Error, CustomStringConvertible {
    let description: String
}

extension Decoder {
    /// Decodes a value written as one string (an identifier, a unit string): `parse` makes the value, and a
    /// string it rejects becomes `DecodingError.dataCorrupted` whose debug description is the error's text.
    func decodeSingleString<Value>(_ parse: (String) throws -> Value) throws -> Value {
        let container = try singleValueContainer()
        let text = try container.decode(String.self)
        do {
            return try parse(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error)")
        }
    }
}

extension Encoder {
    /// Encodes a value as one string, the form ``Decoder/decodeSingleString(_:)`` reads.
    func encodeSingleString(_ text: String) throws {
        var container = singleValueContainer()
        try container.encode(text)
    }
}

extension Decoder {
    /// Opens an enum written as an object with exactly one key, the key naming the case (`{"number": 2}`);
    /// any other object is `DecodingError.dataCorrupted` listing the keys, with `subject` naming the value
    /// ("a sample has exactly one of the keys quantity, category, …").
    func singleKeyContainer<Key: CodingKey & CaseIterable>(
        keyedBy type: Key.Type, subject: String
    ) throws -> (container: KeyedDecodingContainer<Key>, key: Key) {
        let container = try self.container(keyedBy: type)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            let keys = Key.allCases.map(\.stringValue).joined(separator: ", ")
            let message = "\(subject) has exactly one of the keys \(keys)"
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: message))
        }
        return (container, key)
    }
}
