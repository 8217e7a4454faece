"""A real editor process for the tests that start one: it must come up and stay up."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest


def editor_stays_up(
    command: list[str], env: Mapping[str, str], seconds: float, cwd: Path | None = None
) -> tuple[str, list[str]]:
    """Start the editor with ``command``, require it to be running after ``seconds``,
    then close it: what it wrote on stdout, and the lines of its stderr but Qt's
    offscreen note about size hints."""
    proc = subprocess.Popen(
        command,
        cwd=cwd,
        env=dict(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=seconds)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=10)
    return out, [line for line in err.splitlines() if "propagateSizeHints" not in line]
