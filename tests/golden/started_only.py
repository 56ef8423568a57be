"""Prove that two checkouts play every recorded game the same but for the keys added to its `started` event.

Run: python tests/golden/started_only.py OLD_CHECKOUT NEW_CHECKOUT [KEY ...]   (keys default: spec mods)

For every game, player count and seed of tests/golden/record.py, each checkout (in a process of its own, its
own `rulelang` imported) prints the fingerprint of the game with KEY... left out of its `started` event, and
which keys its `started` event has. The two must print the same fingerprints; the keys may differ only by
KEY... . Use it before re-recording tests/golden/logs.json for a change meant to add to `started` alone.
"""
from __future__ import annotations

import json
import subprocess
import sys

#: Run in each checkout: record.py's fingerprint, with the given keys taken out of `started` first.
PROBE = r"""
import hashlib, json, random, sys
root, dropped = sys.argv[1], set(sys.argv[2:])
sys.path[:0] = [root, root + "/tests/golden"]
import record
from rulelang.logs.logfile import event_line
out = {}
for name, (folder, mods) in record.GAMES.items():
    game = record.load_game(record.ROOT / folder, mods=[record.ROOT / m for m in mods])
    for players in range(max(2, game.min_players), min(8, game.max_players) + 1):
        for seed in range(record.SEEDS):
            state = game.new_state(players, seed)
            chooser = random.Random(seed)
            digest = hashlib.sha256()
            for _ in range(record.MAX_DECISIONS):
                decision = state.decision()
                if decision is None:
                    break
                player = decision.players[0]
                options = decision.options[player]
                digest.update(repr((decision.kind, player, [(o.id, o.label) for o in options])).encode())
                state.apply_index(chooser.randrange(len(options)), player)
            events = state.events
            started = {k: v for k, v in events[0].items() if k not in dropped}
            for event in [started, *events[1:]]:
                digest.update(event_line(event))
            out[f"{name} {players} {seed}"] = [digest.hexdigest(), sorted(events[0]), len(events)]
print(json.dumps(out))
"""


def probe(root: str, keys: list[str]) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, root, *keys], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> int:
    old_root, new_root, *keys = sys.argv[1:]
    keys = keys or ["spec", "mods"]
    old, new = probe(old_root, keys), probe(new_root, keys)
    assert old.keys() == new.keys(), "the two checkouts record different games"
    differ = [k for k in old if old[k][0] != new[k][0]]
    added = {k: sorted(set(new[k][1]) - set(old[k][1])) for k in old if new[k][1] != old[k][1]}
    beyond = {k: a for k, a in added.items() if not set(a) <= set(keys) or set(old[k][1]) - set(new[k][1])}
    events = sum(v[2] for v in new.values())
    print(f"{len(old)} games, {events} events: {len(differ)} differ beyond `started`'s {' '.join(keys)}; "
          f"{len(added)} games' `started` gained {sorted({x for a in added.values() for x in a})}")
    for k in differ[:20]:
        print("  differs:", k)
    for k, a in list(beyond.items())[:20]:
        print("  other keys:", k, a)
    return 1 if differ or beyond else 0


if __name__ == "__main__":
    sys.exit(main())
