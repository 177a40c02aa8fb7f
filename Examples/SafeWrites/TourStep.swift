import FlowKit

/// One step of a tour run in series (the lesson's exercise 2): a title and the work, started only when its turn
/// comes.
public struct TourStep: Sendable {
    /// What the step's line says.
    public let title: String
    /// Starts the step's work; called only when the step's turn comes.
    public let start: @Sendable () -> Promise<Void>

    /// A step from its title and work.
    public init(title: String, start: @escaping @Sendable () -> Promise<Void>) {
        self.title = title
        self.start = start
    }
}
