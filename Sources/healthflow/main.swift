import FlowKit

print("healthflow \(FlowKit.version)")
