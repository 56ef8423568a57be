"""Rules compiled to Python (rulelang/compiler/codegen.py and its sources).

- Nothing of a spec becomes code: names and strings of rule texts reach the generated source
  only as literals, whatever characters they hold (a hypothesis fuzz over the grammar's names
  and strings, dunders, backslashes, quotes and unicode included).
- The generated code plays every game exactly as the closures it replaces (the reference): the
  speed-ups' harness (test_speedups.py, flag ``generated``) plays every game so; here, the edges.
- A failure inside generated code is told at its statement's spec line.
- `rulelang compile PATH --python` prints the module, each function under its spec line.
"""
from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.cli import main
from rulelang.compiler import compile_game
from rulelang.compiler.codegen import FILENAME, HELPERS, READS_LOCALS, Unit, hoist_state_lists
from rulelang.errors import RuleError, SpecError
from rulelang.spec.loader import load_document

from golden import record  # the fingerprint of a game: decisions offered and the event log
from helpers.dice_statements import dice_game
from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "tests" / "broken" / "_valid"


#: What generated code may name: its arguments, its helpers, and names the generator makes up.
OWN_NAMES = {"st", "L", "fr", "error", "_blame", "_line_spans", "q", *HELPERS}
MADE_UP = re.compile(r"^(_[a-z]+\d*|expression|statements|instruction|direct|turn|aggregate\d+|function\d+)$")
#: A generated function's name, made from its declaration's path (compiler/naming.py): lower-case ASCII words.
MANGLED = re.compile(r"^[a-z][a-z0-9_]*$")
#: The attributes generated code reads: the state's own fields, a frame's locals and pc, list methods, and the
#: protocol's answers in place (a number chosen, a branch, secret choices among fixed options), whose turn it is
#: (a whole turn played in place), and whether the game keeps its history (records are appended only then).
STATE_FIELDS = {"counters", "vars", "zones", "lay", "turn", "n", "out", "work", "log", "history", "loc", "stack",
                "append", "get",
                "role_players", "team_players", "roles", "tables", "locals", "pc", "fired", "number_in_place",
                "branch_in_place", "same_answers_in_place", "active", "pop"}


def identifiers(source: str) -> tuple[set[str], set[str], list[str]]:
    """(names, attribute names, string constants) of a generated module; the names of its own functions, where
    mangled as the generator names them, are its own and not listed."""
    tree = ast.parse(source)
    names, attrs, strings = set(), set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute):
            attrs.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.append(node.value)
    defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and MANGLED.match(node.name)}
    return names - defined, attrs, strings


def game_with(tmp_path: Path, setup_lines: list[str], name: str = "game") -> Path:
    dest = tmp_path / name
    shutil.copytree(VALID, dest)
    path = dest / "game.yaml"
    text = path.read_text(encoding="utf-8")
    old = "setup: |\n  shuffle deck\n"
    assert old in text
    path.write_text(text.replace(old, old + "".join(f"  {line}\n" for line in setup_lines), 1), encoding="utf-8")
    return dest


# --- nothing of a spec becomes code ----------------------------------------------------------------

NAMES = st.one_of(st.from_regex(r"\A[a-z_][a-z0-9_]{0,12}\Z"),
                  st.sampled_from(["__class__", "__import__", "__builtins__", "__dict__", "_k0", "_blame",
                                   "st", "fr", "error", "exec", "_line_spans", "q", "lambda_", "import_"]))
#: The grammar's strings hold anything but a double quote and a newline.
TEXTS = st.text(st.characters(blacklist_characters='"\n\r', blacklist_categories=("Cs",)), max_size=24) | \
    st.sampled_from(["\\", "\\n", "'", "''' + __import__('os').system('x') + '''", "{L}", "%s", "\\x00",
                     "é日本\u202e", "')); import os; ((\u2028"])


@examples(25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES, text=TEXTS)
def test_names_and_strings_of_a_spec_reach_the_generated_code_only_as_literals(tmp_path_factory, name: str,
                                                                                text: str) -> None:
    folder = game_with(tmp_path_factory.mktemp("fuzz"), [f'{name} = "{text}"', f'if {name} = "{text}":',
                                                         "  pot.coin += 1"])
    try:
        game = rulelang.load_game(folder)
    except SpecError:
        assume(False)                   # a reserved word or a name the game already uses: refused, fine
        return
    source = game.program.source()
    names, attrs, strings = identifiers(source)
    assert all(n in OWN_NAMES or MADE_UP.match(n) for n in names), names - OWN_NAMES
    assert attrs <= STATE_FIELDS, attrs - STATE_FIELDS
    assert name in strings and text in strings     # as the keys and values they are, nothing more
    state = game.new_state(2, seed=1)
    play_out(state, RandomAgent(1))
    assert state.over
    assert state.counter("pot", "coin") >= 1       # the comparison held: the string kept its exact value


def test_the_checks_above_would_see_a_spec_name_used_as_code() -> None:
    names, attrs, _ = identifiers("def statements(st, L):\n    return evil.__class__\n")
    assert not all(n in OWN_NAMES or MADE_UP.match(n) for n in names)
    assert not attrs <= STATE_FIELDS


def test_generated_code_sees_no_builtins_but_its_helpers() -> None:
    game = rulelang.load_game(ROOT / "games" / "jacks_friends")
    generated = list(_functions_of(game))
    assert generated
    for function in generated:
        space = function.__globals__
        assert space["__builtins__"] == {}
        assert not {"open", "__import__", "eval", "exec", "getattr"} & set(space)
        assert all(name in OWN_NAMES or MADE_UP.match(name) or _generated(space, name)
                   for name in space if name != "__builtins__")


def _generated(space: dict, name: str) -> bool:
    """Whether ``name`` is one of the unit's own generated functions, named as the generator names them."""
    code = getattr(space[name], "__code__", None)
    return MANGLED.match(name) is not None and code is not None and code.co_filename.startswith(FILENAME)


def _functions_of(game):
    for ops in game.code:
        for op in ops:
            if getattr(op, "__code__", None) is not None and op.__code__.co_filename.startswith("<rulelang"):
                yield op


# --- the generated code plays as the closures do (every game: test_speedups.py, flag ``generated``) ----------

def test_counters_written_out_in_place_keep_their_rules(tmp_path: Path) -> None:
    """The counter stores written out in generated code (no call to state.set_counter) and `in` a list fixed
    when the game loads (one set lookup) do what the closures do: never below 0, a move takes at most what
    there is, `in` and `not in` as a list would answer."""
    folder = game_with(tmp_path, [
        "pot.coin = 5", "pot.coin -= 9",                      # 0, not -4
        "for each p in players:", "  p.coin = 4", "  move 7 coin from p to pot",    # 4 there: 4 move
        "pot.coin += 2",                                      # a counter plus a literal
        "for each p in guest:", "  move 1 coin from pot to p",
        "  p.bet = 1 if 2 in [1, 2, 3] else 0",
        "  if 4 not in [1, 2, 3]:", "    p.bet += 10",
        "  if 3 not in [1, 2, 3]:", "    p.bet += 100",
        "game.coin = 0 - 2", "game.coin += 1"])               # kept at 0, then 1
    doc = load_document(folder)
    for game in (compile_game(doc), compile_game(doc, python=False)):
        state = game.new_state(3, seed=1, before_first_turn=True)
        guests = [p for p in range(3) if state.lay.roles[p] == "guest"]
        assert state.counter("pot", "coin") == 4 * 3 + 2 - len(guests)
        assert state.counter("game", "coin") == 1
        assert [state.var(p, "bet") for p in guests] == [11] * len(guests) and guests


#: A call of a closure from generated code: a constant of the unit called with the locals (``fallback``).
CLOSURE_CALLED = re.compile(r"\b_k\d+\(st, L\)")


def test_the_statements_that_change_rolls_reveal_create_and_loop_play_as_their_closures(tmp_path: Path) -> None:
    """A dice game using add, remove, change, both rerolls, `rolls ... for`, reveal to a player and to all,
    create and while, a list comprehension, `range`, every player's zone and `c is k` (helpers/dice_statements.py):
    its generated code calls no closure, names only its helpers and the state's fields, and plays every seed as
    the closures do, event for event."""
    doc = load_document(dice_game(tmp_path / "dice"))
    generated, closures = compile_game(doc), compile_game(doc, python=False)
    source = generated.program.source()
    assert not CLOSURE_CALLED.search(source), CLOSURE_CALLED.findall(source)
    for helper in ("_add_dice", "_remove_dice", "_change_face", "_reroll_all", "_reroll_face", "_reveal_cards",
                   "_create_tokens", "_numbers_between", "_every_players_cards", "_kind_is", "comprehension"):
        assert helper in source, helper
    names, attrs, _ = identifiers(source)
    assert all(n in OWN_NAMES or MADE_UP.match(n) for n in names), names - OWN_NAMES
    assert attrs <= STATE_FIELDS, attrs - STATE_FIELDS
    seen: set[tuple] = set()
    for players in (2, 3):
        for seed in range(20):
            assert record.fingerprint(generated, players, seed) == record.fingerprint(closures, players, seed), \
                (players, seed)
            states = [game.new_state(players, seed) for game in (generated, closures)]
            for state in states:
                play_out(state, RandomAgent(seed))
            assert states[0].events == states[1].events and states[0].dumps() == states[1].dumps()
            seen |= {(e["type"], e.get("how"), e.get("to") == "all", "for" in e) for e in states[0].events}
    assert {("roll_changed", how, False, False) for how in ("added", "removed", "changed", "rerolled")} <= seen
    assert {("revealed", None, True, False), ("revealed", None, False, False), ("rolled", None, False, True)} <= seen
    assert ("moved", "created", False, False) in seen


# --- failures are told at their statement --------------------------------------------------------

#: A line of the dice game that fails as it runs, and its error; each in a loop, so the line table finds it there.
FAILING = [
    ("reveal me.tray to none", "cards are revealed to nobody: the player is none"),
    ("change 1 to n + 7 in r", "die 'd6' has no face 7 (its faces are 1 to 6)"),
    ("add 20000 to r", "a roll of 20002 dice is more than the"),
]


@pytest.mark.parametrize("python", [True, False])
@pytest.mark.parametrize("line, message", FAILING)
def test_a_failing_home_statement_is_told_at_its_line_both_ways(tmp_path: Path, python: bool, line: str,
                                                                  message: str) -> None:
    throw = f"roll 2 d6 as r\nwhile count(r) < 3:\n  reroll r\n  {line}\n  add 1 to r\n"
    folder = dice_game(tmp_path / "dice", throw)
    game = compile_game(load_document(folder), python=python)
    state = game.new_state(2, seed=1)
    with pytest.raises(RuleError) as caught:
        state.apply_index(0)                # n = 0
    assert caught.value.message.startswith(message)
    text = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert text[caught.value.span.line - 1].strip() == line


def test_a_failure_inside_generated_code_names_its_statement(tmp_path: Path) -> None:
    folder = game_with(tmp_path, ["for each p in players:", "  p.coin = 3", "  if p.coin > 0:",
                                  "    p.coin += 1", "    p.bet = 10 // (p.coin - 4)"])
    game = rulelang.load_game(folder)
    with pytest.raises(RuleError) as caught:
        state = game.new_state(2, seed=1)
        play_out(state, RandomAgent(1))
    error = caught.value
    assert error.message == "division by zero"
    text = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert "p.bet = 10 // (p.coin - 4)" in text[error.span.line - 1]


def test_a_number_past_the_limit_in_generated_code_names_its_statement(tmp_path: Path) -> None:
    folder = game_with(tmp_path, ["pot.coin = 9223372036854775000", "for each p in players:",
                                  "  pot.coin += 1000"])
    game = rulelang.load_game(folder)
    with pytest.raises(RuleError) as caught:
        game.new_state(2, seed=1)
    text = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert "pot.coin += 1000" in text[caught.value.span.line - 1]


def test_a_temporary_never_hides_a_constant_of_the_same_name(tmp_path: Path) -> None:
    """Five closures (constants _k0.._k4) before a counter move, whose temporaries once ran _k0.._k4 too:
    the moved amount's was named _k4 and hid the fifth closure (an internal UnboundLocalError)."""
    folder = game_with(tmp_path, [*["reveal deck to all"] * 5,
                                  "move 2 coin from pot to first(players)"])
    doc = load_document(folder)
    for python in (True, False):
        state = compile_game(doc, python=python).new_state(2, seed=1)
        assert state.counter("pot", "coin") == 0
        assert sum(e["type"] == "revealed" for e in state.events) == 5


# --- spec functions written where they are called ------------------------------------------------------

FUNCTIONS = """
functions:
  twice:
    params: {x: int}
    value: x * 2
  wealth:
    params: {p: player}
    value: p.coin + count(c in p.hand where c is gem) + count(q in players where q.coin > p.coin)
  word:
    params: {x: int}
    value: '"_a0 _x L[''me'']" if x > 0 else "_o0"'
"""


def test_a_function_that_reads_only_its_parameters_is_written_where_it_is_called(tmp_path: Path) -> None:
    """No dict of parameters is built for it: a plain argument stands in its parameter's place, any other
    becomes the parameter of a function of the unit; a comprehension in its body reads the parameter as
    its own. The game is the one the closures play."""
    folder = game_with(tmp_path, ["for each p in players:", "  p.coin = 3",
                                  "draw 2 from deck to first(players).hand",
                                  "for each p in players where wealth(p) >= twice(1):",
                                  "  p.bet = twice(wealth(p))",
                                  "pot.coin = twice(count(players) + 1)",
                                  "if word(1) = \"_a0 _x L['me']\" and word(0) = \"_o0\":",
                                  "  pot.coin += 100"])
    path = folder / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("\nfunctions:\n", FUNCTIONS, 1), encoding="utf-8")
    doc = load_document(folder)
    generated, closures = compile_game(doc), compile_game(doc, python=False)
    source = generated.program.source()
    assert "(st, {'x'" not in source and "(st, {'p'" not in source     # no call hands a dict to the body
    assert re.search(r"^def \w+_function\d+\(st, L, _a0\):", source, re.M)  # twice(count(players) + 1)
    for players in (2, 3):
        for seed in range(4):
            state = generated.new_state(players, seed, before_first_turn=True)     # setup done, no draw yet
            gems = state.zone("hand", 0).count("gem")
            assert state.vars[0][state.game.var_names.index("bet")] == 2 * (3 + gems)
            assert state.counter("pot", "coin") == 2 * (players + 1) + 100    # string literals kept whole
            assert record.fingerprint(generated, players, seed) == record.fingerprint(closures, players, seed)


def test_an_expression_split_apart_inside_a_loop_or_a_comprehension_reads_their_names(tmp_path: Path) -> None:
    """Expressions nested past MAX_NESTING are compiled as functions of their own, called with ``L``: the
    name of the loop or comprehension they stand in must be read from there, not from the Python variable
    of the function that calls them (which they cannot see)."""
    deep = "(" * 30 + "p.coin" + " + 1)" * 30        # the name read at the bottom, 30 levels down
    folder = game_with(tmp_path, ["for each p in players:", "  p.coin = 3",
                                  f"for each p in players where {deep} > 30:",
                                  f"  p.bet = count(q in players where {deep.replace('p.', 'q.')} > 0)"])
    doc = load_document(folder)
    generated, closures = compile_game(doc), compile_game(doc, python=False)
    for players in (2, 3):
        state = generated.new_state(players, 1, before_first_turn=True)
        assert [row[state.game.var_names.index("bet")] for row in state.vars] == [players] * players
        assert record.fingerprint(generated, players, 1) == record.fingerprint(closures, players, 1)


@examples(200)
@given(texts=st.lists(st.text(max_size=20) | st.sampled_from(["st.log", "st.counters[0]", "'", '"', "\\", "\\'"]),
                      min_size=1, max_size=3))
def test_reading_the_states_lists_once_leaves_every_string_literal_as_it_was(texts: list[str]) -> None:
    """``codegen.hoist_state_lists`` renames ``st.counters`` (and vars, zones, log) only outside the string
    literals of a function's lines, which are reprs of names: whatever the names hold, they come out whole."""
    u = Unit()
    body = u.new_function("direct")
    named = texts * 2                   # each list named twice at least: read once into a local
    for text in named:
        body.line(f"st.log.append(({text!r}, st.counters[0], {text!r} + 'st.log'))")
    hoist_state_lists(body)
    assert body.lines[0].strip() == "_log, _counters = st.log, st.counters"
    assert len(body.lines) == len(named) + 1
    for text, line in zip(named, body.lines[1:]):
        call = ast.parse(line.strip()).body[0].value
        assert ast.unparse(call.func) == "_log.append"
        first, counters, last = call.args[0].elts
        assert ast.literal_eval(first) == text and ast.literal_eval(last.left) == text
        assert ast.unparse(counters) == "_counters[0]" and ast.literal_eval(last.right) == "st.log"


def test_a_roles_players_named_twice_are_read_once_and_a_literal_that_names_them_stays() -> None:
    """``hoist_state_lists`` reads the players of a role named more than once into a local (the layout's list,
    the same for the whole game); a role named once, and the same words inside a string literal, stay."""
    u = Unit()
    body = u.new_function("direct")
    said = "st.lay.role_players['giant']"
    body.line("_xs0 = st.lay.role_players['giant']")
    body.line(f"_log.append(({said!r}, st.lay.role_players['giant'], st.lay.role_players['elf']))")
    hoist_state_lists(body)
    assert body.lines[0].strip() == "_roles_0 = st.lay.role_players['giant']"
    assert body.lines[1].strip() == "_xs0 = _roles_0"
    call = ast.parse(body.lines[2].strip()).body[0].value
    text, giant, elf = call.args[0].elts
    assert ast.literal_eval(text) == said and ast.unparse(giant) == "_roles_0"
    assert ast.unparse(elf) == "st.lay.role_players['elf']"
    assert set(u.spans[body.index]) == {2, 3}       # the line table moved with the lines


@pytest.mark.parametrize("line, reads", [
    ("L = {'me': _me}", True), ("_decide(st, _k6, _k7, L)", True), ("x = L['me']", True), ("L.get('me')", True),
    ("if aggregate1(st, L, _t):", True), ("_L = 1", False), ("LIST = []", False), ("st.L", False),
    ("_log.append((_k0, st.turn, 'L'))", False), ('names = "L"', False), ("_local = {'p': _me}", False),
])
def test_a_line_reads_the_locals_when_it_names_L_outside_another_name(line: str, reads: bool) -> None:
    """``READS_LOCALS`` tells which generated lines may read ``L``: a step or a target loop whose lines never do
    makes no dict of locals. A name inside a string only keeps them when they need not be; never the reverse."""
    assert (READS_LOCALS.search(line) is not None) == reads


def test_a_step_of_a_whole_turn_makes_its_locals_only_where_its_lines_read_them() -> None:
    """Flapjacks' whole turn: 'draw a Jack card' reads neither its locals nor the stack's depth, and has both
    lines as comments (the line table keeps its numbers); 'play a card' hands its locals to the decision."""
    game = rulelang.load_game(ROOT / "games" / "flapjacks")
    source = game.program.source()
    turn = source[re.search(r"def \w+_whole_turn\(st\):", source).start():]
    jack = turn[turn.index("'draw a Jack card'"):turn.index("'play a card'")]
    play = turn[turn.index("'play a card'"):turn.index("'chopping roll'")]
    assert "# L = {'me': _me}" in jack and "# _n = len(_stack)" in jack
    assert "\n        L = {'me': _me}" in play and "\n        _n = len(_stack)" in play
    compile(turn.split("\n# from")[0], "turn", "exec")        # the comments leave valid Python


def test_a_loops_name_bound_after_it_is_bound_only_where_the_step_reads_it_again(tmp_path: Path) -> None:
    """In a whole turn, a loop's name is bound after the loop only where something later in the step reads
    it: 'Tally' never reads `p` again, so its binding is a `pass`; 'Last' reads it after its loop. Both play
    as the closures do."""
    folder = tmp_path / "game"
    shutil.copytree(VALID, folder)
    path = folder / "game.yaml"
    text = path.read_text(encoding="utf-8")
    start, end = text.index("    - name: Draw"), text.index("\nend:")
    steps = ("    - name: Tally\n      effect: |\n        for each p in players:\n          p.bet = p.coin\n"
             "    - name: Last\n      effect: |\n        for each p in players where p.coin > 2:\n"
             "          pot.coin += 1\n        if p != none:\n          p.bet += 5\n"
             "    - name: Draw\n      effect: |\n        draw 1 from deck to me.hand\n        check end\n")
    path.write_text(text[:start] + steps + text[end:], encoding="utf-8")
    doc = load_document(folder)
    generated = compile_game(doc)
    turn = generated.program.source()
    turn = turn[re.search(r"def \w+_whole_turn\(st\):", turn).start():]
    tally, last = turn[:turn.index("# step 'Last'")], turn[turn.index("# step 'Last'"):turn.index("# step 'Draw'")]
    assert re.search(r"pass  # L\['p'\] = _\w+\[-1\] \(nothing after it reads the name\)", tally)
    assert re.search(r"\n +L\['p'\] = _\w+\[-1\]\n", last) and "nothing after it" not in last
    compile(turn.split("\n# from")[0], "turn", "exec")
    for seed in range(3):
        states = [game.new_state(3, seed=seed) for game in (generated, compile_game(doc, python=False))]
        for state in states:
            play_out(state, RandomAgent(seed))
        assert states[0].dumps() == states[1].dumps()
        assert states[0].over


# --- rulelang compile --python -------------------------------------------------------------------------

def test_compile_python_prints_a_module_with_each_function_under_its_spec_line(capsys) -> None:
    assert main(["compile", str(ROOT / "games" / "jacks_friends"), "--python"]) == 0
    out = capsys.readouterr().out
    ast.parse(out)
    assert re.search(r"^# from .*turn\.yaml:\d+:\d+$", out, re.M)
    quoting = [line for line in out.splitlines() if "village.house" in line]
    # rule texts are quoted (above a function, or what a line reads at its end), never copied as code
    assert any(line.startswith("#   | ") for line in quoting)
    assert any(line.endswith("  # village.house") and not line.startswith("#") for line in quoting)
    assert all("village.house" not in line.partition("#")[0] for line in quoting)
    # each function named after its declaration and part (compiler/naming.py)
    assert "def step_3_build_instruction(st, fr):" in out and "def procedure_eat_expression(st, L):" in out
    assert "def end_the_jack_of_beans_was_flipped_when(st, L):" in out


@pytest.mark.parametrize("game", ["games/flapjacks", "games/jacks_friends", "examples/hooks"])
def test_compile_python_prints_the_same_listing_on_every_run(game: str, capsys) -> None:
    """A listing is read and compared (by diff, in review): no constant may be described by its address."""
    listings = []
    for _ in range(2):
        assert main(["compile", str(ROOT / game), "--python"]) == 0
        listings.append(capsys.readouterr().out)
    assert " object at 0x" not in listings[0]
    assert re.search(r"^# _k\d+: the jump to instruction \d+ of its procedure$", listings[0], re.M)
    assert listings[0] == listings[1]


def test_a_constant_with_no_repr_of_its_own_is_described_by_its_kind_not_its_address() -> None:
    from rulelang.compiler.program import _describe

    class Marker:
        __slots__ = ()

    assert _describe(Marker()) == "a Marker of the compiler"
    assert _describe((1, "a")) == "(1, 'a')"       # a constant with a repr of its own keeps it


def test_compile_without_python_is_a_usage_error(capsys) -> None:
    assert main(["compile", str(ROOT / "games" / "jacks_friends")]) == 2
    assert "--python" in capsys.readouterr().err


def test_a_file_name_with_line_breaks_stays_inside_its_comment(tmp_path: Path) -> None:
    """An included file's name is quoted in `# from FILE:LINE:COL`; its line breaks made lines of code there."""
    dest = tmp_path / "game"
    shutil.copytree(VALID, dest)
    evil = "cards\nevil = __import__('os')\n\r#\u2028.yaml"
    setup = "setup: |\n  shuffle deck\n  for each p in players:\n    p.coin = 3\n"
    (dest / evil).write_text((dest / "cards.yaml").read_text(encoding="utf-8") + setup, encoding="utf-8")
    (dest / "cards.yaml").unlink()
    spec = dest / "game.yaml"
    text = spec.read_text(encoding="utf-8").replace("include: [cards.yaml]", f"include: [{json.dumps(evil)}]")
    spec.write_text(text.replace("\n" + setup, "\n"), encoding="utf-8")
    source = rulelang.load_game(dest).program.source()
    assert repr(str(dest / evil))[1:-1] in source or repr(evil)[1:-1] in source
    names, _, _ = identifiers(source)
    assert "evil" not in names and "__import__" not in names
    assert all(line.lstrip().startswith("#") or "evil" not in line for line in source.splitlines())
