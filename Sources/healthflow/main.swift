import FlowKit

print("healthflow")
