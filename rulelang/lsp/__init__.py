"""`rulelang lsp`: a language server for editors (an optional extra: ``pip install 'rulelang[lsp]'``).

``overlay`` puts the editor's texts in place of the files, ``diagnose`` runs the
CLI's checks on a file as what it is (game, include, mod, scenario, policy),
``quick`` checks a game without generating its code, ``index`` lists the names
a game declares, ``positions`` converts places, ``server`` speaks the protocol
through pygls. docs/editors.md says how to use it and what it does not do.
"""
from __future__ import annotations


def missing_pygls() -> str | None:
    """Why the server cannot start (pygls is not installed), or None."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        return "the language server needs pygls: pip install 'rulelang[lsp]'"
    return None
