import CZlib

extension HealthSync {
    /// The version of the zlib library HealthSync compresses with, as zlib reports it.
    ///
    /// ```swift
    /// HealthSync.zlibVersion   // "1.2.13"
    /// ```
    public static var zlibVersion: String {
        String(cString: CZlib.zlibVersion())
    }
}
