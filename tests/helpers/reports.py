"""Reading what `rulelang validate` wrote: the lines rulelang said itself, and the mark it must never show."""
from __future__ import annotations

import re

#: A '?' standing alone, as the checker marks a type it found wrong already: never shown to a designer
#: (the '?' closing "did you mean 'deck'?" follows a quote, and is not one).
BARE_MARK = re.compile(r"(?:^|[\s(,:\[])\?(?=$|[\s),.\]:s])")


def said_lines(err: str) -> list[str]:
    """The lines of a report that rulelang wrote itself (messages, hints, notes), not the quoted source."""
    return [line for line in err.splitlines()
            if ": error: " in line or ": warning: " in line or line.startswith(("hint: ", "note: "))]
