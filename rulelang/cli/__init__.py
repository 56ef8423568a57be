"""The `rulelang` command: validate specs, run games, test scenarios.

Errors are printed gcc-style and never as tracebacks. Exit codes: 0 success,
1 a spec, scenario or game error (or a log that could not be written in full),
2 a usage error such as a missing path (one line on stderr), 3 an internal
error of rulelang itself (one line, no traceback), 130 interrupted.

The parser is in ``cli_args.py``, the `run` command in ``cli_run.py``, the other
commands in ``cli_commands.py`` and the reporting of failures in ``cli_errors.py``.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence

from rulelang.cli.args import build_parser
from rulelang.cli.commands import (
    cmd_compile,
    cmd_lsp,
    cmd_mods,
    cmd_new,
    cmd_play,
    cmd_replay,
    cmd_serve,
    cmd_simulate,
    cmd_sweep,
    cmd_test,
    cmd_validate,
)
from rulelang.cli.errors import check_mods, internal_error, say, silence_stdout
from rulelang.cli.run import cmd_run
from rulelang.errors import RulelangError, UsageError
from rulelang.model.params import parse_assignments
from rulelang.printable import printable
from rulelang.rulebook.command import cmd_explain, cmd_rules


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; whatever happens, the user sees messages and an exit code, never a traceback."""
    try:
        code = _dispatch(argv)
        sys.stdout.flush()           # here, not at exit, so a closed pipe is still reported quietly
        return code
    except UsageError as usage:             # a ParamError is a UsageError too
        say(lambda usage=usage: printable(f"rulelang: error: {usage}"))
        return 2
    except RulelangError as error:
        say(error.format)
        return 1
    except KeyboardInterrupt:
        say(lambda: "rulelang: interrupted")
        return 130
    except BrokenPipeError:          # the reader went away (e.g. `| head`): stop quietly
        silence_stdout()
        return 141
    except OSError as error:         # the machine failed us (stdout on a full disk, ...): not a bug
        silence_stdout()
        say(lambda error=error: printable(f"rulelang: error: {error.strerror or error}"
                                          + (f": {error.filename}" if error.filename else "")))
        return 1
    except BaseException as error:   # MemoryError, RecursionError, a bug of rulelang: still one line
        if isinstance(error, SystemExit):
            raise
        say(lambda error=error: internal_error(error))
        return 3


def _dispatch(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        raise UsageError("a command is needed: validate, run, test, replay, compile, simulate, sweep, play, mods, new, "
                    "rules, explain, lsp or serve")
    check_mods(getattr(args, "mods", []))
    args.params = parse_assignments(getattr(args, "param_items", []))
    return {"validate": cmd_validate, "run": cmd_run, "test": cmd_test, "replay": cmd_replay,
            "simulate": cmd_simulate, "sweep": cmd_sweep, "play": cmd_play, "mods": cmd_mods,
            "new": cmd_new, "compile": cmd_compile, "rules": cmd_rules, "explain": cmd_explain,
            "lsp": cmd_lsp, "serve": cmd_serve}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
