"""`rulelang serve`: a local web app for one game folder (an optional extra: ``pip install 'rulelang[serve]'``).

``command`` starts it (127.0.0.1 only, a random token in every URL), ``guard`` refuses what is not the page's
own request (token, Host, Origin, body size) and adds the security headers, ``app`` maps the API onto the
game: ``folder`` reads and writes its files, ``diagnostics`` checks an unsaved text as the CLI would,
``sessions`` plays games seat by seat, ``logs_view`` steps through event logs, ``jobs`` runs simulate and
sweep in a worker thread. docs/serve.md says what it exposes and what it refuses.
"""
from __future__ import annotations


def missing_extra() -> str | None:
    """Why the server cannot start (starlette or uvicorn is not installed), or None."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return "rulelang serve needs starlette and uvicorn: pip install 'rulelang[serve]'"
    return None


class ApiError(Exception):
    """A request the API refuses: the HTTP status, what is wrong and what to do (the answer's JSON)."""

    def __init__(self, status: int, error: str, hint: str = "") -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.hint = hint
