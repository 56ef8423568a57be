"""One-step games made from a spec template whose ``{effect}`` is a rule text: each effect's folder written once."""
from __future__ import annotations

import tempfile
from pathlib import Path

import rulelang


def one_step(ends_when: str = '"true"') -> str:
    """The turn and end of a one-step game, for a template to end with: its `{effect}`, then `check end`,
    which ends the game once ``ends_when`` holds (at once, unless told otherwise)."""
    return f"""\
turn:
  order: seat
  steps:
    - name: work
      effect: |
{{effect}}
        check end
end:
  - name: done
    when: {ends_when}
    winner: players
"""


#: A one-step game's turn and end that end it at once.
ONE_STEP = one_step()


class EffectGames:
    """``games(tmp_path, effect, **params)``: the template's game with this effect, compiled for these params.

    The folder of an effect is written on first use and kept for the session, so hypothesis examples that
    reuse an effect load it again rather than write it again.
    """

    def __init__(self, template: str, indent: int = 8) -> None:
        self.template = template
        self.indent = " " * indent
        self.folders: dict[str, Path] = {}

    def __call__(self, tmp_path: Path, effect: str, **params: int) -> rulelang.Game:
        if effect not in self.folders:
            folder = Path(tempfile.mkdtemp(dir=tmp_path))
            body = "\n".join(self.indent + line for line in effect.splitlines())
            (folder / "game.yaml").write_text(self.template.format(effect=body))
            self.folders[effect] = folder
        return rulelang.load_game(self.folders[effect], params=params)
