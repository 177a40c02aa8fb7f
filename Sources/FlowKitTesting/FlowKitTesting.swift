/// Testing support for FlowKit: a manual scheduler whose clock only moves when the test says so.
public enum FlowKitTesting {}
