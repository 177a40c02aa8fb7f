/// One sort key of a sample query — the counterpart of `NSSortDescriptor(key: HKSampleSortIdentifierStartDate…)`.
///
/// Several descriptors sort lexicographically. Ties left by every descriptor fall back to ascending start
/// date, then to the order the samples entered the store, so results are always deterministic.
public struct SampleSortDescriptor: Hashable, Sendable {
    /// Which date to sort by.
    public enum Key: String, CaseIterable, Hashable, Sendable, Codable {
        /// `HKSampleSortIdentifierStartDate`.
        case startDate
        /// `HKSampleSortIdentifierEndDate`.
        case endDate
    }

    /// The date to sort by.
    public let key: Key
    /// Oldest first when `true`, newest first when `false`.
    public let ascending: Bool

    /// Makes a descriptor.
    ///
    /// - Parameters:
    ///   - key: The date to sort by.
    ///   - ascending: Oldest first when `true`.
    public init(key: Key, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// Sorts by start date.
    ///
    /// - Parameter ascending: Oldest first when `true`.
    /// - Returns: The descriptor.
    public static func startDate(ascending: Bool = true) -> SampleSortDescriptor {
        SampleSortDescriptor(key: .startDate, ascending: ascending)
    }

    /// Sorts by end date.
    ///
    /// - Parameter ascending: Oldest first when `true`.
    /// - Returns: The descriptor.
    public static func endDate(ascending: Bool = true) -> SampleSortDescriptor {
        SampleSortDescriptor(key: .endDate, ascending: ascending)
    }
}
