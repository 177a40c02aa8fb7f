"""Prepares the tests' private Python environment: a virtual environment with the pinned test oracles.

Usage: python3 prepare_venv.py VENV_DIR REQUIREMENTS_FILE

Creates VENV_DIR (a virtual environment) and installs REQUIREMENTS_FILE into it, unless VENV_DIR/healthflow-stamp
already holds the SHA-256 of that file (a changed pin rebuilds the environment). An exclusive lock on
VENV_DIR.lock keeps concurrent test processes from building it at the same time. Nothing outside VENV_DIR is
touched: the user's global and user site-packages stay as they are.

On success the last stdout line is the environment's interpreter. On failure it prints one line to stderr that
says what is missing and the command that fixes it, and exits with status 2 (never a traceback).
"""

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(2)


def interpreter_of(venv_dir):
    return os.path.join(venv_dir, "bin", "python3")


def is_ready(venv_dir, stamp):
    path = os.path.join(venv_dir, "healthflow-stamp")
    try:
        with open(path, encoding="utf-8") as file:
            return file.read().strip() == stamp and os.access(interpreter_of(venv_dir), os.X_OK)
    except OSError:
        return False


def build(venv_dir, requirements, stamp):
    manual = f"python3 -m venv {venv_dir} && {venv_dir}/bin/python3 -m pip install -r {requirements}"
    try:
        import venv  # noqa: F401 - only checks that the module exists
        import ensurepip  # noqa: F401
    except ImportError:
        fail(
            "python3 has no 'venv' module (needed for the tests' HTTP receiver): install it, "
            "e.g. 'apt-get install python3-venv' on Debian/Ubuntu"
        )
    shutil.rmtree(venv_dir, ignore_errors=True)
    created = subprocess.run(
        [sys.executable, "-m", "venv", venv_dir], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    if created.returncode != 0:
        last = (created.stderr.strip().splitlines() or ["no message"])[-1]
        fail(f"python3 -m venv failed ({last}); install venv support, e.g. 'apt-get install python3-venv'")
    environment = dict(os.environ, PIP_USER="0", PYTHONNOUSERSITE="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    environment.pop("PIP_TARGET", None)
    environment.pop("PIP_PREFIX", None)
    installed = subprocess.run(
        [interpreter_of(venv_dir), "-m", "pip", "install", "--quiet", "-r", requirements],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    if installed.returncode != 0:
        errors = [line for line in installed.stderr.splitlines() if line.startswith("ERROR")]
        reason = errors[0] if errors else "pip failed"
        fail(f"could not install the pinned test packages ({reason}); is PyPI reachable? Then run: {manual}")
    with open(os.path.join(venv_dir, "healthflow-stamp"), "w", encoding="utf-8") as file:
        file.write(stamp + "\n")


def main():
    if len(sys.argv) != 3:
        fail("usage: prepare_venv.py VENV_DIR REQUIREMENTS_FILE")
    venv_dir, requirements = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    try:
        with open(requirements, "rb") as file:
            stamp = hashlib.sha256(file.read()).hexdigest()
    except OSError as error:
        fail(f"cannot read {requirements}: {error.strerror}")
    os.makedirs(os.path.dirname(venv_dir), exist_ok=True)
    with open(venv_dir + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not is_ready(venv_dir, stamp):
            build(venv_dir, requirements, stamp)
    print(interpreter_of(venv_dir))


if __name__ == "__main__":
    main()
