/// Where the demo and the tour write their trace (a protocol, so tests could capture it).
protocol DemoOutput: Sendable {
    func line(_ text: String)
}

/// Standard output.
struct StandardOutput: DemoOutput {
    func line(_ text: String) {
        print(text)
    }
}
