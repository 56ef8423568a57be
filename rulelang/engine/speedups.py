"""The speed-ups, each with the one switch that turns it off: the same game, byte for byte, either way.

Every speed-up of the engine and the compiler skips work whose answer is already known, so a game played
with it off is the game played with it on (``tests/equivalence/test_speedups.py`` plays every flag off
against all on, over the games, player counts and seeds). ``SPEEDUPS`` names each one, where its switch is
read, and what it skips; ``Speedups`` holds the switches read when a game is compiled or started
(``load_game(path, speedups=...)``, ``compile_game(doc, speedups=...)``), all on by default. Two are
switches of a run instead: ``new_state(history=False)`` (off by default: it turns the speed-up *on*) and
``play_out(..., in_place=False)``.

Each switch is read once, when the game is compiled or a state is started, never while it runs: a game
with every speed-up on runs the code it always ran. The registry lives in the engine because the engine
reads some of the switches; it imports nothing, so the compiler (above the engine) reads it too.

Some speed-ups stand on others: steps played in place and the kept end check are parts of the generated
Python, so ``generated=False`` turns them off too; steps played in place run only while decisions are
answered in place, so ``in_place=False`` leaves them unplayed.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import NamedTuple


@dataclass(frozen=True)
class Speedups:
    """The switches read when a game is compiled or started; each True (on) unless turned off for tests."""

    #: rule texts compiled to generated Python (compiler/codegen.py); off: every rule is a closure
    generated: bool = True
    #: the end check's answers kept until a zone it reads changes (compiler/derived.py); off: asked every time
    derived: bool = True
    #: each step and procedure also written as one function, played while decisions are answered in place
    #: (compiler/direct.py); off: the frames run every step
    direct: bool = True
    #: the forms of card rules that let the card primitives skip work (compiler/forms.py: `target != me`,
    #: kind gates of answers and triggers) and a card's play run in place (plays.rest_in_place); off: every
    #: condition asked for every seat and card, and a play in a step played in place run by its instructions
    card_forms: bool = True
    #: settled starts kept and unpacked (engine/starts.py); off: every new game plays its setup
    kept_starts: bool = True
    #: the RNG's outputs worked out 128 at a time (engine/rng.outputs, Board.randbelow); off: one at a time
    batched_draws: bool = True
    # (a place for more: fixed policies answered in place, when they come)

    def without(self, name: str) -> Speedups:
        """These switches with the speed-up ``name`` off (a ``ValueError`` for a name that is not one)."""
        if name not in SWITCHES:
            raise ValueError(f"no speed-up is switched by {name!r}; the switches: {', '.join(SWITCHES)}")
        return replace(self, **{name: False})


#: Every speed-up on: what ``load_game`` and ``compile_game`` use unless told otherwise.
ALL_ON = Speedups()
#: The names of the switches ``Speedups`` holds.
SWITCHES = tuple(f.name for f in fields(Speedups))


class Speedup(NamedTuple):
    """One speed-up: its flag, how to turn it off, and what it skips."""

    flag: str
    off: str
    skips: str


#: Every speed-up, in the order the docs list them (docs/architecture.md, "Speed-ups").
SPEEDUPS = (
    Speedup("generated", "Speedups(generated=False) (also compile_game(doc, python=False))",
            "the closures' calls: rule texts run as generated Python"),
    Speedup("derived", "Speedups(derived=False)",
            "asking the end conditions again while nothing they read has changed"),
    Speedup("direct", "Speedups(direct=False)",
            "a trip through the run loop for every few statements while decisions are answered in place"),
    Speedup("card_forms", "Speedups(card_forms=False)",
            "asking a card's target for the player, an answer's or trigger's condition for cards of other "
            "kinds, and a frame for each part of a card's play"),
    Speedup("kept_starts", "Speedups(kept_starts=False)",
            "playing again a setup that draws few numbers"),
    Speedup("batched_draws", "Speedups(batched_draws=False)",
            "a dozen big-int operations per random draw (128 outputs at once)"),
    Speedup("in_place", "play_out(state, agents, in_place=False)",
            "storing a decision and its options for agents that pick by count alone"),
    Speedup("no_history", "new_state(..., history=True) (the default; history=False turns it on)",
            "the records of each step, turn, change, move and roll that nothing reads"),
    # (fixed policies answered in place: its entry here, its switch in Speedups or play_out, its check in
    # tests/helpers/speedups.py)
)
