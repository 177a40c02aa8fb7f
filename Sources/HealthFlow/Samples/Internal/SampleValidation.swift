import Foundation

/// The checks shared by every sample initializer, each throwing the `ValidationError` case for its rule.
enum SampleValidation {
    /// The type must be a sample type of the given kind.
    static func requireKind(_ type: HealthObjectType, _ kind: HealthObjectType.Kind) throws(ValidationError) {
        guard type.isSampleType else { throw .notASampleType(type) }
        guard type.kind == kind else { throw .wrongKind(type, expected: kind) }
    }

    /// The rules every sample kind obeys, checked in this order: the dates (``validateDates(_:start:end:)``),
    /// then the metadata (``validateMetadata(_:of:)``).
    static func validateCommonFields(
        _ type: HealthObjectType, start: Date, end: Date, metadata: [MetadataKey: MetadataValue]
    ) throws(ValidationError) {
        try validateDates(type, start: start, end: end)
        try validateMetadata(metadata, of: type)
    }

    /// Dates must be finite and `end >= start`.
    private static func validateDates(_ type: HealthObjectType, start: Date, end: Date) throws(ValidationError) {
        guard start.timeIntervalSinceReferenceDate.isFinite else { throw .invalidDate(type, field: "startDate") }
        guard end.timeIntervalSinceReferenceDate.isFinite else { throw .invalidDate(type, field: "endDate") }
        guard end >= start else { throw .endBeforeStart(type, start: start, end: end) }
    }

    /// A quantity must be in a unit compatible with `expected`, finite, and non-negative unless allowed.
    /// `expected` is `nil` when the caller already knows the unit fits (the dimension check is the costly
    /// part; see `HealthQuantitySample.init(type:quantity:start:end:source:metadata:uuid:knownUnitFit:)`).
    static func validateQuantity(
        _ quantity: HealthQuantity, of type: HealthObjectType, field: String, expected: HealthUnit?,
        allowsNegative: Bool
    ) throws(ValidationError) {
        if let expected, !quantity.is(compatibleWith: expected) {
            throw .incompatibleUnit(type, field: field, unit: quantity.unit, expected: expected)
        }
        guard quantity.value.isFinite else { throw .nonFiniteValue(type, field: field, value: quantity.value) }
        guard allowsNegative || quantity.value >= 0 else {
            throw .negativeValue(type, field: field, value: quantity.value)
        }
    }

    /// Required keys must be present; known keys must hold values they accept; numbers, dates and
    /// quantities must be finite; a sync identifier needs a sync version. Of several problems, the one
    /// reported is the first in key order (required keys first), whatever the dictionary's order.
    private static func validateMetadata(
        _ metadata: [MetadataKey: MetadataValue], of type: HealthObjectType
    ) throws(ValidationError) {
        let required = type.requiredMetadataKeys
        // Empty metadata (most samples) breaks no rule unless the type requires keys.
        if metadata.isEmpty, required.isEmpty { return }
        if !required.allSatisfy({ metadata[$0] != nil }) {
            for key in required.sorted(by: { $0.rawValue < $1.rawValue }) where metadata[key] == nil {
                throw .missingMetadata(type, key: key)
            }
        }
        // One pass over the entries, comparing keys rather than hashing them for look-ups.
        var (hasSyncIdentifier, hasSyncVersion, hasProblem) = (false, false, false)
        for (key, value) in metadata {
            if key == .syncIdentifier { hasSyncIdentifier = true } else if key == .syncVersion { hasSyncVersion = true }
            if !hasProblem, problem(with: value, at: key, of: type) != nil { hasProblem = true }
        }
        if hasSyncIdentifier, !hasSyncVersion { throw .missingMetadata(type, key: .syncVersion) }
        // Sorting only to name the first problem: valid metadata (nearly always) is checked in place.
        guard hasProblem else { return }
        var first: ValidationError?
        metadata.forEachInKeyOrder { key, value in
            if first == nil { first = problem(with: value, at: key, of: type) }
        }
        if let first { throw first }
    }

    /// What is wrong with one metadata value, or `nil`.
    private static func problem(
        with value: MetadataValue, at key: MetadataKey, of type: HealthObjectType
    ) -> ValidationError? {
        if let expectation = key.expectation, !expectation.accepts(value) {
            return .invalidMetadataValue(type, key: key, value: value, expected: expectation.summary)
        }
        switch value {
        case .string:
            return nil
        case .number(let number) where !number.isFinite:
            return .invalidMetadataValue(type, key: key, value: value, expected: "a finite number")
        case .date(let date) where !date.timeIntervalSinceReferenceDate.isFinite:
            return .invalidMetadataValue(type, key: key, value: value, expected: "a finite date")
        case .quantity(let quantity) where !quantity.value.isFinite:
            return .invalidMetadataValue(type, key: key, value: value, expected: "a finite quantity")
        case .number, .date, .quantity:
            return nil
        }
    }
}

/// Wraps a validation failure met while decoding into a `DecodingError`.
extension DecodingError {
    static func invalidSample(_ error: ValidationError, in decoder: any Decoder) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
    }
}
