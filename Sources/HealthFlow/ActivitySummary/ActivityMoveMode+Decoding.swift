extension ActivityMoveMode {
    /// Decodes HealthKit's raw value (`1`, `2`), which is what HealthFlow encodes, or the case's name
    /// (`"activeEnergy"`, `"appleMoveTime"`), the form in which earlier HealthFlow versions wrote the move mode of
    /// summaries and goals.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for any other value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let rawValue = try? container.decode(Int.self), let mode = ActivityMoveMode(rawValue: rawValue) {
            self = mode
        } else if let name = try? container.decode(String.self),
            let mode = Self.allCases.first(where: { "\($0)" == name })
        {
            self = mode
        } else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "not an activity move mode (1, 2, \"activeEnergy\" or \"appleMoveTime\")")
        }
    }
}
