"""Steps played in place (rulelang/compiler/direct.py): the same games as the frames play, and the same limits.

While every decision is answered in place, the turn loop plays each step and procedure as one Python
function. The speed-ups' harness (test_speedups.py: flags ``direct`` and ``in_place``) plays every game of
games/, the examples and the golden logs' mods both ways; these tests pin the edges the direct functions
must keep: an `end turn` deep inside a called procedure, decisions inside loops and branches, runaway
recursion and loops, a game that never ends, and errors located at their statement.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulelang
from rulelang.agents import RandomAgent, play_new, play_out
from rulelang.engine.limits import DecisionLimit
from rulelang.errors import RuleError

from golden.record import GAMES as GOLDEN
from helpers.both_ways import both_ways, load, pending_loop
from helpers.speedups import loaded
from helpers.tiny_games import TWO_PHASES

ROOT = Path(__file__).resolve().parents[2]


SPEC = """
game: Direct
players: {min: 2, max: 3}
counters:
  points: {label: point}
vars:
  picked: {type: int, initial: 0}
  depth: {type: int, initial: 0}
  mark: {type: int, initial: 0}
procedures:
  pick_some:
    params: {p: player}
    effect: |
      for each k in [1, 2, 3]:
        if k != 2:
          p chooses n from 0 to k * 3
          p.picked += n
      while p.picked > 7:
        p chooses one:
          "drop two":
            p.picked -= 2
          "drop three":
            p.picked -= 3
  finish:
    params: {p: player}
    effect: |
      if p.picked = 7:
        p.points += 1
        end turn
      p.points += 0
  nest:
    params: {p: player}
    effect: |
      p.depth += 1
      nest(p)
turn:
  order: seat
  limit: 60
  steps:
    - name: gather
      effect: |
        pick_some(me)
        finish(me)
        me.picked = 0 - 100
    - name: settle
      effect: |
        each p in players where p.depth = 0 secretly chooses p.mark in [7]
        each p in players where p != me secretly chooses p.mark in [1, 2, 3]
        me.picked = 0
        check end
end:
  - name: ten points
    when: count(p in players where p.points >= 3) >= 1
    winner: first(p in players where p.points >= 3)
  - name: long game
    when: turn >= 50
    winner: players
"""


def spec_game(tmp_path: Path, text: str = SPEC) -> rulelang.Game:
    folder = tmp_path / "direct"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(text)
    return rulelang.load_game(folder)


def test_decisions_in_loops_and_branches_and_an_end_turn_in_a_called_procedure(tmp_path: Path) -> None:
    game = spec_game(tmp_path)
    assert game.direct[game.procs.index(next(p for p in game.procs if p.name == "procedure finish"))] is not None
    ended_early = dropped = 0
    for players in (2, 3):
        for seed in range(30):
            in_place = both_ways(game, players, seed)
            steps: dict[int, set] = {}
            for e in in_place.events:
                if e["type"] == "step":
                    steps.setdefault(e["turn"], set()).add(e["step"])
            # `end turn` in finish() skips the rest of `gather` and the whole `settle` step
            ended_early += sum(1 for names in steps.values() if "gather" in names and "settle" not in names)
            dropped += sum(1 for e in in_place.events if e["type"] == "chose" and e["decision"] == "branch")
    assert ended_early and dropped          # the `end turn` and the `while` of decisions both happened


def test_single_options_asked_or_taken_at_once_alike(tmp_path: Path) -> None:
    """A secret choice of one option is taken at once, unless the game asks single options: both ways."""
    for asked in (False, True):
        game = spec_game(tmp_path, SPEC + f"ask_single_options: {str(asked).lower()}\n")
        for seed in range(10):
            in_place = both_ways(game, 3, seed)
            sevens = [e for e in in_place.events
                      if e["type"] == "chose" and e["decision"] == "secret" and e["option"] == "7"]
            assert bool(sevens) == asked


def test_runaway_recursion_through_direct_calls_is_the_call_depth_error(tmp_path: Path) -> None:
    recursive = SPEC.replace("      p.depth += 1\n      nest(p)", "      nest(p)\n      p.depth += 1")
    game = spec_game(tmp_path, recursive.replace("        me.picked = 0\n        check end",
                                                 "        me.picked = 0\n        if turn >= 3:\n          nest(me)\n        check end"))
    with pytest.raises(RuleError) as framed:
        pending_loop(game, 2, 1)
    with pytest.raises(RuleError) as in_place:
        play_out(game.new_state(2, 1), RandomAgent(1))
    assert str(in_place.value) == str(framed.value)
    assert "deep" in str(in_place.value)


def test_a_loop_of_decisions_that_never_ends_stops_at_the_play_outs_decision_limit(tmp_path: Path) -> None:
    looping = SPEC.replace("      while p.picked > 7:", "      while p.picked > 0 - 1:").replace(
        '"drop three":\n            p.picked -= 3', '"drop three":\n            p.picked -= 0')
    game = spec_game(tmp_path, looping.replace('"drop two":\n            p.picked -= 2',
                                                '"drop two":\n            p.picked += 1'))
    with pytest.raises(DecisionLimit, match="did not end after 500 decisions"):
        play_out(game.new_state(2, 4), RandomAgent(4), max_decisions=500)


def test_a_failure_inside_a_step_played_in_place_names_its_statement(tmp_path: Path) -> None:
    game = spec_game(tmp_path, SPEC.replace("      while p.picked > 7:",
                                            "      if turn >= 3:\n"
                                            "        p.picked = p.picked // (p.depth - p.depth)\n"
                                            "      while p.picked > 7:"))
    with pytest.raises(RuleError) as framed:
        pending_loop(game, 2, 2)
    with pytest.raises(RuleError) as in_place:
        play_out(game.new_state(2, 2), RandomAgent(2))
    assert in_place.value.span is not None
    assert (in_place.value.span.line, str(in_place.value)) == (framed.value.span.line, str(framed.value))


def test_the_generated_module_lists_the_functions_played_in_place() -> None:
    game = rulelang.load_game(ROOT / "games" / "jacks_friends")
    listing = game.program.source()
    assert "(played in place)" in listing
    assert re.search(r"^def \w+_in_place\(st, L\):$", listing, re.M)
    assert len(re.findall(r"^def \w+_whole_turn\(st\):$", listing, re.M)) == 1   # its eight steps in one function
    assert "(a whole turn from this step, played in place)" in listing
    assert "the record of a skipped turn" in listing      # `t skips turn` as lines of its own (Skip.in_place)


def test_a_phase_with_turn_hooks_has_no_whole_turn_in_place() -> None:
    """Hooks run between steps (``turns.call_step``), so a phase they watch plays its steps one by one."""
    folder, mods = GOLDEN["hooks"]
    assert not re.search(r"^def \w+_whole_turn\(st\):", load(folder, mods).program.source(), re.M)


@pytest.mark.parametrize("name", ["jacks_friends", "flapjacks", "hooks", "kuhn_poker", "goofspiel"])
def test_a_game_played_from_before_its_first_step_is_the_same_game(name: str) -> None:
    """``play_new`` stops before turn 1's first step, so that turn is played in place too: the same game."""
    game = loaded(name)
    for players in range(game.min_players, min(game.max_players, 5) + 1):
        for seed in range(4):
            fresh = play_new(game, players, seed, RandomAgent(seed))
            usual = play_out(game.new_state(players, seed), RandomAgent(seed))
            assert fresh.events == usual.events and fresh.dumps() == usual.dumps()


LOOPS = """
game: Loops
players: {min: 2, max: 2}
vars:
  last: {type: int, initial: 0}
  kept: {type: int, initial: 0}
  pick: {type: int, initial: 0}
  passed: {type: int, initial: 0}
  plain: {type: int, initial: 0}
turn:
  order: seat
  limit: 10
  steps:
    - name: straight
      effect: |
        for each k in [4, 5, 6] where k < 6:
          me.kept += k
        me.last = k
    - name: the last passes
      effect: |
        for each j in [1, 2, 3] where j > 1:
          me.kept += j * 100
        me.passed = j
    - name: no filter
      effect: |
        for each i in [7, 8]:
          me.kept += i * 1000
        me.plain = i
    - name: renamed in its body
      effect: |
        for each k in [1, 2, 3] where k > 1:
          k = k * 10
        me.kept += k
    - name: with a decision
      effect: |
        for each k in [7, 8, 9] where k != 9:
          me chooses n from 0 to 1
          me.pick += n
        me.last += k
        check end
end:
  - name: over
    when: turn >= 1
    winner: players
"""


@pytest.mark.parametrize("ways", ["in place", "frames"])
def test_a_loops_name_keeps_its_last_item_after_the_loop_whether_or_not_it_passed_the_filter(
        tmp_path: Path, ways: str) -> None:
    """The filter reads the item without binding it (compiler/source_stmt.for_items), yet after the loop the
    name holds the last item when that item failed the filter, and what the body left when it passed."""
    game = spec_game(tmp_path, LOOPS)
    state = both_ways(game, 2, 0) if ways == "in place" else pending_loop(game, 2, 0)
    row = dict(zip(game.var_names, state.vars[0]))
    assert row["last"] == 6 + 9             # 6 and 9 failed their filters, yet each was the name's last value
    assert row["passed"] == 3 and row["plain"] == 8     # bound once, after loops whose bodies read no locals
    assert row["kept"] == 4 + 5 + 500 + 15000 + 30      # 3 passed, and the body made it 30


def test_a_loop_whose_body_reads_no_locals_binds_its_name_once_after_it(tmp_path: Path) -> None:
    """A body that reads the item as its Python variable needs no binding at each pass (source_stmt.after_loop):
    the listing binds `i` and `j` after their loops only, while `k`, renamed in its body, is bound in it."""
    listing = spec_game(tmp_path, LOOPS).program.source()
    for name in "ij":
        assert f"L[{name!r}] = _xs" in listing                  # after the loop: its last item
        assert f"    pass  # L[{name!r}] = _x" in listing       # no longer at each pass
    assert re.search(r"^ +L\['k'\] = _x\d+$", listing, re.M)   # the renaming loop binds it at each pass


NUMBERS = """
game: Numbers
players: {min: 2, max: 3}
counters:
  total: {label: total}
vars:
  low: {type: int, initial: 0}
turn:
  order: seat
  limit: 40
  steps:
    - name: pick
      effect: |
        me chooses x from me.low to me.low - 2 + turn
        game.total += x
        me.low += 1
        CHOOSER chooses y from 0 to WIDTH
        game.total += y
        check end
    - name: branch
      effect: |
        CHOOSER chooses one:
          "by three" if turn - turn // 3 * 3 = 0:
            game.total += 3
          "by two" if turn - turn // 2 * 2 = 0:
            game.total += 2
end:
  - name: long enough
    when: turn >= 12
    winner: players
"""


def numbers_game(tmp_path: Path, chooser: str = "me", width: str = "turn // 4", asked: bool = False) -> rulelang.Game:
    text = NUMBERS.replace("CHOOSER", chooser).replace("WIDTH", width)
    return spec_game(tmp_path, text + f"ask_single_options: {str(asked).lower()}\n")


@pytest.mark.parametrize("asked", [False, True])
def test_a_number_or_branch_chosen_in_place_is_the_one_the_frames_choose(tmp_path: Path, asked: bool) -> None:
    """`from A to B` and `chooses one:` in place build no options (State.number_in_place, branch_in_place):
    B below A offers A alone, one number or one open branch is taken at once unless single options are
    asked, no open branch takes none, and the log names the option chosen, both ways alike."""
    game = numbers_game(tmp_path, asked=asked)
    for players in (2, 3):
        for seed in range(8):
            in_place = both_ways(game, players, seed)
            numbers = [e for e in in_place.events if e["type"] == "chose" and e["decision"] == "number"]
            on_turn_1 = [e for e in numbers if e["turn"] == 1]
            assert [e["option"] for e in on_turn_1] == (["0", "0"] if asked else [])   # x from 0 to -1, y from 0 to 0
            assert any(e["turn"] >= 4 and int(e["option"]) > 0 for e in numbers)
            branches = {(e["turn"], e["option"]) for e in in_place.events if e["type"] == "chose" and e["decision"] == "branch"}
            assert {t for t, _ in branches} == {t for t in range(2, 12) if (t % 2 == 0 or t % 3 == 0)
                                                 and (asked or t % 6 == 0)}      # turn 1: no branch is open
            assert {o for t, o in branches if t % 6} <= {"by-two", "by-three"}


def test_a_number_choice_too_wide_or_for_nobody_fails_in_place_as_in_frames(tmp_path: Path) -> None:
    for chooser, width, words in (("me", "100000 * turn", "more than the 100000 options"),
                                  ("first(p in players where p.low > 99)", "3", "a player who is none"),
                                  ("first(p in players where p.low > 99)", "0", "a player who is none")):
        game = numbers_game(tmp_path, chooser, width)
        with pytest.raises(RuleError) as framed:
            pending_loop(game, 2, 1)
        with pytest.raises(RuleError) as in_place:
            play_out(game.new_state(2, 1), RandomAgent(1))
        assert words in str(in_place.value)
        # the same message at the same statement; only the hint's context may differ: a decision asked through
        # frames names its step too ("in step 'branch'"), as it did before these decisions had direct forms
        assert (in_place.value.span, in_place.value.message) == (framed.value.span, framed.value.message)
        assert in_place.value.hint.split(" (seed")[0] == framed.value.hint.split(" (seed")[0]


FIRING = """
game: Fired
players: {min: 2, max: 3}
counters:
  coin: {label: coins}
vars:
  seen: {type: int, initial: 0}
zones:
  deck: {owner: table, visibility: hidden}
  play: {owner: player, visibility: public}
cards:
  - {id: chip, name: Chip, count: 40, zone: deck}
triggers:
  - name: a card in play pays
    on: enter play
    effect: owner.coin += 1
turn:
  order: seat
  limit: 60
  steps:
    - name: place
      effect: |
        me chooses k from 0 to 2
        draw k from deck to me.play
        me.seen = me.coin
        check end
end:
  - name: rich
    when: any(p in players where p.coin >= 6)
    winner: first(p in players where p.coin >= 6)
"""


def test_a_card_moved_in_place_runs_the_triggers_it_fired_before_the_next_statement(tmp_path: Path) -> None:
    """A move that may fire a zone trigger is written out in the step's direct function, then what it fired
    runs (interpreter.fired_in_place), not as an instruction of its own: the next statement sees the coins."""
    game = spec_game(tmp_path, FIRING)
    source = game.program.source()
    assert "(played in place)" in source and "_fired(st, _n, _n)" in source and "_op(st," not in source
    for players in (2, 3):
        for seed in range(6):
            in_place = both_ways(game, players, seed)
            entered: dict[str, int] = {}
            for e in in_place.events:
                if e["type"] == "moved":
                    entered[e["to"]] = entered.get(e["to"], 0) + 1
                elif e["type"] == "set" and e.get("var") == "seen":
                    assert e["value"] == entered.get(f"play:{e['player']}", 0), (players, seed, e)
            assert in_place.over and any(e["type"] == "set" and e.get("var") == "seen" for e in in_place.events)


LOCALS = """
game: Locals
players: {min: 2, max: 3}
dice:
  d: {faces: 6}
vars:
  a: {type: int, initial: 0}
  b: {type: int, initial: 0}
  c: {type: int, initial: 0}
  d: {type: int, initial: 0}
  e: {type: int, initial: 0}
  f: {type: int, initial: 0}
procedures:
  grow:
    params: {p: player, k: int}
    effect: |
      p.f += k
      for each q in players:
        p.f += k
        k = k + 1
      p.f += k
turn:
  order: seat
  limit: 10
  steps:
    - name: kept
      effect: |
        x = 1
        if turn > 0:
          x = 5
        me.a += x
        y = 0
        for each p in players:
          me.b += y
          y = y + 10
        me.c += y
        roll 1 d as r
        add 2 to r
        me.d += count(r)
        for each p in players:
          me chooses n from 0 to 1
          me.e += n + count(q in players where q = p) * 10
        grow(me, 1)
        check end
end:
  - name: over
    when: turn >= 4
    winner: players
"""


@pytest.mark.parametrize("ways", ["in place", "frames"])
def test_a_local_read_from_its_python_variable_is_the_value_it_holds(tmp_path: Path, ways: str) -> None:
    """Generated code reads a local from the Python variable it was just stored from, until a statement that may
    bind it again (compiler/source_expr.keep, forget): a branch's assignment, a loop's pass that reassigns it,
    `add` changing a roll, a loop's name beside a decision that binds another local, and a procedure's
    parameter read at its start then reassigned in a loop all read what the rules left, as the closures do."""
    game = spec_game(tmp_path, LOCALS)
    for players in (2, 3):
        for seed in range(4):
            state = both_ways(game, players, seed) if ways == "in place" else pending_loop(game, players, seed)
            for p in range(players):
                turns = len([t for t in range(1, 5) if (t - 1) % players == p])
                row = dict(zip(game.var_names, state.vars[p]))
                assert row["a"] == 5 * turns                                  # the branch's x, not the first
                assert row["b"] == sum(10 * k for k in range(players)) * turns   # y as each pass left it
                assert row["c"] == 10 * players * turns
                assert row["d"] == 3 * turns                                  # the roll `add` made longer
                assert 0 <= row["e"] - 10 * players * turns <= players * turns    # p as each pass bound it
                assert row["f"] == (1 + sum(range(1, players + 1)) + players + 1) * turns   # k, then as each pass left it


def test_a_game_started_before_its_first_step_plays_every_turn_whole_in_place() -> None:
    """``play_new`` stops before turn 1's first step; the play-out then plays that turn through the phase's
    whole-turn function too (``turns.resume_before_step``), as ``begin_turn`` plays every later one."""
    game = rulelang.load_game(ROOT / "games" / "jacks_friends")
    phase = game.phases[0]
    whole_turn, played = phase.in_place, []

    def counted(st):
        played.append(st.turn)
        return whole_turn(st)
    phase.in_place = counted
    try:
        state = play_new(game, 4, 5, RandomAgent(5))
    finally:
        phase.in_place = whole_turn
    assert played == list(range(1, state.turn + 1))
    assert state.events == play_out(game.new_state(4, 5), RandomAgent(5)).events


NAMED = """
game: Named
players: {min: 2, max: 2}
counters:
  total: {label: total}
turn:
  order: seat
  limit: 10
  steps:
    - name: "st.counters st.log 'x'"
      effect: |
        game.total += 1
        game.total += 1
    - name: 'st.vars "y" st.zones \\\\ st.log'
      effect: |
        game.total += 1
        check end
end:
  - name: over
    when: game.total >= 9
    winner: players
"""


def test_a_whole_turn_reads_the_states_lists_once_and_leaves_string_literals_alone(tmp_path: Path) -> None:
    """A direct function that names ``st.counters`` (or vars, zones, log) more than once reads it once into a
    local (codegen.hoist_state_lists); the reprs of names in its lines, such as step names that spell the same
    words, stay as they are."""
    game = spec_game(tmp_path, NAMED)
    turn = next(unit for unit in game.program.source().split("# from ") if re.search(r"def \w+_whole_turn\(st\):", unit))
    prologue = next(line.strip() for line in turn.splitlines() if " = st." in line and "_log" in line)
    assert "st.counters" in prologue and "st.counters[" not in turn and "_counters[" in turn
    assert "'st.counters st.log \\'x\\''" in turn or "\"st.counters st.log 'x'\"" in turn
    state = both_ways(game, 2, 0)
    steps = [e["step"] for e in state.events if e["type"] == "step"]
    assert steps[:2] == ["st.counters st.log 'x'", 'st.vars "y" st.zones \\\\ st.log'] and len(steps) == 6
    assert state.counter("game", "total") == 9


#: test_phases.py's two phases, the first with no decision and a turn that ends early
PHASED = TWO_PHASES.replace("        effect: me.coin += 1\n", """        effect: |
          me.coin += 1
          if turn = 3:
            me skips turn
          me.coin += 1
""")


def test_whole_turns_follow_one_another_within_a_phase_and_stop_where_it_ends(tmp_path: Path) -> None:
    """``begin_turn`` plays a phase's whole turns one after another without the run loop (``Phase.after_turn``,
    then itself again), a turn ended early included, and hands back to the run loop when the next phase
    begins: the same game as the frames play."""
    game = spec_game(tmp_path, PHASED)
    assert all(phase.in_place is not None and phase.after_turn is not None for phase in game.phases)
    for players in (2, 3):
        for seed in range(6):
            state = both_ways(game, players, seed)
            phases = [(e["turn"], e["phase"]) for e in state.events if e["type"] == "phase"]
            assert phases == [(0, "gather"), (4, "spend")]
            earned = [e for e in state.events if e["type"] == "set" and e.get("counter") == "coin"
                      and e["turn"] <= 4]
            assert len(earned) == 2 * 4 - 1          # two coins a turn, one on turn 3 (its turn ended)
            assert state.over and state.counter("pot", "coin") >= 3


SECRETS = """
game: Secrets
players: {min: 3, max: 3}
vars:
  open: {type: int, initial: 0}
  pick: {type: int, initial: 0}
turn:
  order: seat
  limit: 20
  steps:
    - name: open some
      effect: |
        for each p in players:
          p.open = (turn + p.pick) // 2 - (turn + p.pick) // 4 * 2
    - name: choose
      effect: |
        each p in players where p.open = 1 secretly chooses p.pick in [1, 2, 3]
        check end
end:
  - name: done
    when: turn >= 6
    winner: players
"""


def test_a_secret_choice_reads_its_chooser_as_a_python_variable_and_plays_as_the_frames_do(
        tmp_path: Path) -> None:
    """The filter and the stores of a secret choice read the chooser as a Python variable when nothing they
    call reads the locals (direct.secret_choice): the same games as through frames, turns where nobody
    chooses among them."""
    game = spec_game(tmp_path, SECRETS)
    source = game.program.source()
    assert re.search(r"if not \(+_vars\[_p\d+\]\[\d\] == 1\)+:", source), "the filter reads _p"
    assert "L['p'] = _p" not in source.split("if _ch")[0].split("_in_place(st, L):")[-1]   # no binding per player
    seen = set()
    for seed in range(12):
        state = both_ways(game, 3, seed)
        per_turn = {}
        for e in state.events:
            if e["type"] == "revealed":
                per_turn[e["turn"]] = len(e["choices"])
        seen.update(per_turn.get(turn, 0) for turn in range(1, state.turn + 1))
    assert 0 in seen and 3 in seen and len(seen) >= 3     # turns where nobody, some and all chose
