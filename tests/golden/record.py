"""Record the fingerprints of random games that `tests/equivalence/test_golden_logs.py` compares against.

Run: python tests/golden/record.py  (from the checkout's root)

The fingerprints pin every seed's game (options, dice, events, byte for byte as `--log` writes
them) while the back half of the engine is rebuilt: a rebuild must not change a single game.
Re-record only on purpose, when a change of the rules or of seeding is meant to change games,
and say so in the commit.
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from rulelang import load_game  # noqa: E402
from rulelang.logs.logfile import event_line  # noqa: E402

MODS = "examples/mods/"
#: name -> (game folder, mods laid over it); every legal player count from 2 to 8, seeds 0..SEEDS-1 at each.
GAMES = {"flapjacks": ("games/flapjacks", ()), "jacks_friends": ("games/jacks_friends", ()),
         "pig": ("examples/pig", ()), "hooks": ("examples/hooks", ()),
         **{f"{base}+{m}": (f"games/{base}", (MODS + m,)) for base, m in
            [("flapjacks", "double_bit_axe"), ("flapjacks", "lumberjack_fair"), ("flapjacks", "scarce_titanium"),
             ("flapjacks", "second_helping"), ("jacks_friends", "seven_at_the_table"),
             ("flapjacks", "sharp_blades"), ("flapjacks", "titanium_rush"), ("flapjacks", "whetstone")]}}
SEEDS = 12
MAX_DECISIONS = 100_000
OUT = Path(__file__).with_name("logs.json")


def fingerprint(game, players: int, seed: int) -> str:
    """SHA-256 of every decision offered (who, options and labels, in order) and of the event log.

    Choices are uniformly random from a generator seeded apart from the game's; the log is
    hashed line by line as `rulelang run --log` writes it.
    """
    state = game.new_state(players, seed)
    chooser = random.Random(seed)
    digest = hashlib.sha256()
    for _ in range(MAX_DECISIONS):
        decision = state.decision()
        if decision is None:
            break
        player = decision.players[0]
        options = decision.options[player]
        digest.update(repr((decision.kind, player, [(o.id, o.label) for o in options])).encode())
        state.apply_index(chooser.randrange(len(options)), player)
    for event in state.events:
        digest.update(event_line(event))
    return digest.hexdigest()


def record() -> dict:
    table: dict = {}
    for name, (folder, mods) in GAMES.items():
        game = load_game(ROOT / folder, mods=[ROOT / m for m in mods])
        table[name] = {str(p): [fingerprint(game, p, s) for s in range(SEEDS)] for p in range(2, 9)
                       if game.min_players <= p <= game.max_players}
    return table


if __name__ == "__main__":
    OUT.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")
