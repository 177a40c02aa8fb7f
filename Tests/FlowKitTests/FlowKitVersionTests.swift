import FlowKit
import Testing

@Test func versionIsSemantic() {
    #expect(FlowKit.version.split(separator: ".").count == 3)
}
