/// A forward-only stream of export.xml's bytes, read in large chunks.
protocol ExportByteSource: AnyObject {
    /// Fills the start of `buffer` and returns how many bytes it wrote; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(HealthExportError) -> Int
    /// Bytes of the underlying file consumed so far (for a zip, compressed bytes): the progress numerator.
    var consumedBytes: Int64 { get }
    /// Bytes of the underlying file the import will consume in all: the progress denominator.
    var totalBytes: Int64 { get }
}
