"""A small dice game whose one step uses every statement that changes a roll, `roll ... for`, `reveal` both ways,
`create` and `while`, and the expressions generated code once left to closures (a list comprehension, `range`,
every player's zone, `c is k` for a local k): played by generated code and by closures alike
(tests/equivalence/test_codegen.py)."""
from __future__ import annotations

import textwrap
from pathlib import Path

SPEC = """\
game: Dice Homes
players: {min: 2, max: 3}
counters:
  coin: {label: coin}
dice:
  d6: {faces: 6, outcomes: {high: [5, 6], low: [1]}}
zones:
  deck: {owner: table, visibility: hidden}
  supply: {owner: table, visibility: public}
  hand: {owner: player, visibility: owner}
  tray: {owner: player, visibility: public}
cards:
  - {id: gem, name: Gem, count: 6, zone: deck}
  - {id: chip, name: Chip, token: true, count: 12, zone: supply}
setup: |
  shuffle deck
turn:
  order: seat
  limit: 14
  steps:
    - name: throw
      effect: |
        me chooses n from 0 to 2
{throw}
        check end
end:
  - name: rich
    when: me.coin >= 60 or turn >= 12
    winner: me
"""

#: The step's lines: every statement named above, their forms and their edges (no die left, a face none shows).
THROW = """\
roll 3 d6 as r
next(me) rolls 2 d6 for me as s
me rolls 1 d6 as t
add n to r
add r.high to r
remove 1 from s
remove n + 5 from t
change 1 to 6 in r
change 4 to 4 in r
reroll 2 in r
reroll 3 in t
if r.total > 14:
  reroll s
while s.total < 9 and count(s) < 6:
  add 1 to s
  reroll 3 in s
create s.high + n chip in me.tray
me.coin += r.total + count([x * y for x in r for y in s where x > y])
if me.coin > 20:
  reveal first(deck) to next(me)
reveal me.tray to all
reveal (c in deck where c is gem) to me
k = chip if n > 0 else gem
me.coin += count(c in tray where c is k) + count(tray) // 5 + sum(range(n, r.total // 4))
"""


def dice_game(folder: Path, throw: str = THROW) -> Path:
    """The game written into ``folder`` (made), its step's lines ``throw``; the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    step = textwrap.indent(throw, " " * 8)
    (folder / "game.yaml").write_text(SPEC.replace("{throw}\n", step), encoding="utf-8")
    return folder
