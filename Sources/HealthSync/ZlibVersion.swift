import CZlib

extension HealthSync {
    /// The version of the zlib library HealthSync compresses with, as zlib reports it.
    public static var zlibVersion: String {
        String(cString: CZlib.zlibVersion())
    }
}
