/// HealthFlow: a faithful model of HealthKit's rules (units, types, samples, authorization, queries),
/// health stores, and the workflows built on FlowKit.
public enum HealthFlow {}
