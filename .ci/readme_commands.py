"""Runs the commands that README.md and the Examples' READMEs and LESSONs tell a reader to paste, verbatim.

Usage (from the package root, after a build): python3 .ci/readme_commands.py (CI runs it in .ci/newcomer.sh's clone)

Which commands: every line of a ```sh block, and every inline `swift run …` / `swift test …` command, in
README.md and Examples/**/*.md. Each runs with bash in the package root, with a private HEALTHFLOW_DATA folder
and a private outbox, and must exit 0; a `swift test --filter X` must also run at least one test.

Skipped, and why:
- `swift test` with no filter: it is CI's own test step (.ci/newcomer.sh runs exactly that line already);
- lines holding a placeholder a reader fills in (`NAME`, `COMMAND`, `URL`, `DIR`, `[`…`]`, `…`): they are usage lines.

Checked the other way round: `HEALTHFLOW_EXERCISES=mine swift test …` checks a learner's own answers, and the
exercises ship as stubs, so it must fail, and say that an exercise "is not done yet".
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

PLACEHOLDER = re.compile(r"\bNAME\b|\bCOMMAND\b|\bURL\b|\bDIR\b|\[|…|\.\.\.")


def documents():
    return ["README.md"] + sorted(glob.glob("Examples/**/*.md", recursive=True))


def commands(path):
    text = open(path, encoding="utf-8").read()
    found = []
    for block in re.findall(r"^```(?:sh|bash|shell)\n(.*?)^```", text, re.S | re.M):
        found += [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    found += re.findall(r"`(swift (?:run|test)[^`]*)`", text)
    return found


def main():
    scratch = tempfile.mkdtemp(prefix="healthflow-readme-")
    environment = dict(os.environ, HEALTHFLOW_DATA=os.path.join(scratch, "data"))
    ran, skipped, failed = 0, 0, []
    try:
        seen = set()
        for path in documents():
            for command in commands(path):
                bare = command.split("#", 1)[0].strip()
                if bare in seen:
                    continue
                seen.add(bare)
                if bare == "swift test" or PLACEHOLDER.search(bare):
                    skipped += 1
                    print(f"skip  {path}: {bare}")
                    continue
                # The README's outbox folder is a scratch folder here, so runs never share one.
                line = command.replace("/tmp/healthflow-outbox", os.path.join(scratch, "outbox"))
                result = subprocess.run(
                    ["bash", "-c", line], env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    text=True, stdin=subprocess.DEVNULL,
                )
                ran += 1
                problem = None
                learner = bare.startswith("HEALTHFLOW_EXERCISES=mine ")
                if learner and (result.returncode == 0 or "is not done yet" not in result.stdout):
                    problem = "the shipped stubs must fail it, saying which exercise is not done yet"
                elif result.returncode != 0 and not learner:
                    problem = f"exit {result.returncode}"
                elif "swift test" in bare and re.search(r"with 0 tests|No matching test cases", result.stdout):
                    problem = "its filter matches no test"
                if problem:
                    failed.append(f"{path}: {bare} — {problem}")
                    print(f"FAIL  {path}: {bare} — {problem}\n{result.stdout[-2000:]}")
                else:
                    print(f"ok    {path}: {bare}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"README commands: {ran} run, {len(failed)} of them failing; {skipped} skipped")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
