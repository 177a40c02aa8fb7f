import Foundation

/// Where the package's built executables are, for tests that run one as a child process (the CLI, probes that
/// crash or measure on purpose): beside the test runner, or beside the `.xctest` bundle on macOS.
public enum BuiltProducts {
    /// The folder holding the built products.
    public static var directory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return Bundle.main.bundleURL
    }

    /// The built executable `name`.
    public static func executable(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }
}
