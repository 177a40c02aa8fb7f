/// HealthSync: serialization, gzip, multipart encoding, transports, the uploader and the sync engine that
/// send a store's changes to a server without losing or duplicating a sample.
public enum HealthSync {}
