#!/usr/bin/env python3
"""Lists HealthKitShim's public declarations, one per line, sorted, from a symbol graph.

Usage: shim-api.py MODULES_DIR [OUTPUT]
  MODULES_DIR  the build's Modules folder (e.g. .build/debug/Modules), holding HealthKitShim.swiftmodule
  OUTPUT       where to write the list (default: standard output)

The list is what a reviewer compares with Apple's iOS 18 HealthKit headers (see
Sources/HealthFlowHealthKit/README.md); Sources/HealthKitShim/API.txt is its checked-in copy, and
HealthKitBridgeTests fails when the two differ. Regenerate after changing the shim's public API:

  swift build --target HealthKitShim
  python3 Tests/HealthKitBridgeTests/Scripts/shim-api.py .build/debug/Modules Sources/HealthKitShim/API.txt
"""
import json
import os
import subprocess
import sys
import tempfile


def declaration(symbol):
    fragments = symbol.get("declarationFragments") or []
    text = "".join(fragment["spelling"] for fragment in fragments)
    return " ".join(text.split())


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    modules = sys.argv[1]
    triple = subprocess.run(
        ["swiftc", "-print-target-info"], check=True, capture_output=True, text=True)
    target = json.loads(triple.stdout)["target"]["triple"]
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            ["swift-symbolgraph-extract", "-module-name", "HealthKitShim", "-I", modules, "-target", target,
             "-minimum-access-level", "public", "-skip-synthesized-members", "-output-dir", out],
            check=True)
        lines = set()
        for name in sorted(os.listdir(out)):
            with open(os.path.join(out, name)) as handle:
                graph = json.load(handle)
            for symbol in graph["symbols"]:
                path = ".".join(symbol["pathComponents"])
                # Members NSObject declares are inherited, not the shim's own API (overrides are kept).
                lines.add(f"{path}  ::  {declaration(symbol)}")
    text = "\n".join(sorted(lines)) + "\n"
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
