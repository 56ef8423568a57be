"""A command run in this process as a program would be run: its input given, its output and exit code read back.

Starting Python and importing rulelang takes a good part of a second per command, so a test of what a command
says (not of how the process behaves: signals, closed pipes, a full disk, a file that would block) runs it
here; each command keeps tests that start it as a program (marked ``subprocess``).
"""
from __future__ import annotations

import io
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

from rulelang.cli import main

from . import ROOT


def command(*args: str, given: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """``rulelang ARGS`` run in ``cwd`` with ``given`` as its input, as ``subprocess.run(..., text=True)``
    would report the program: its exit code, what it printed on stdout and on stderr."""
    out, err = io.StringIO(), io.StringIO()
    was = Path.cwd()
    os.chdir(cwd)
    try:
        with mock.patch.object(sys, "stdin", io.StringIO(given)), redirect_stdout(out), redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(was)
    return subprocess.CompletedProcess(["rulelang", *args], code, out.getvalue(), err.getvalue())
