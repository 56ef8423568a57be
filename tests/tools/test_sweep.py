"""`rulelang sweep`: keys that name spec numbers, every setting played, targets, workers."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang.cli import main
from rulelang.errors import RulelangError, SpecError
from rulelang.lab.simulate import Batch
from rulelang.lab.sweep import Measure, Target, Vary, combinations, measure, meets, parse_target, parse_vary, run_sweep
from rulelang.spec.loader import load_document
from rulelang.spec.paths import resolve, with_values

ROOT = Path(__file__).resolve().parents[2]
JF = str(ROOT / "games" / "jacks_friends")
FLAPJACKS = str(ROOT / "games" / "flapjacks")


def sweep(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["sweep", *args])
    out, err = capsys.readouterr()
    return code, out, err


def last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def jf_doc():
    return load_document(JF)


@pytest.fixture(scope="module")
def flapjacks_doc():
    return load_document(FLAPJACKS)


# --- parsing --vary and --target ---------------------------------------------------------------

def test_vary_takes_lists_and_ranges_in_order():
    assert parse_vary("tables.setup.4.houses=8,6,10..12").values == (8, 6, 10, 11, 12)
    assert parse_vary(" dice.chop.faces = 2.5 ").key == "dice.chop.faces"


@pytest.mark.parametrize("text, words", [
    ("tables.setup.4.houses=a", "'a' is not a number"),
    ("tables.setup.4.houses=8,,9", "'' is not a number"),
    ("tables.setup.4.houses", "expected KEY=V1,V2"),
    ("=3", "expected KEY=V1,V2"),
    ("x=3,3", "given twice"),
    ("x=9..3", "must go up"),
    ("end.4.when=" + "9" * 400, "999999999999999999999... is too large"),      # was float('inf'): a name
    ("x=-1" + "0" * 19, "-10000000000000000000 is too large: a game's numbers are at most 9,223,372,036,854,775,807"),
    ("x=1" + "0" * 400 + ".5", "is too large"),
    ("x=1.." + "9" * 5000, "is too large"),                                     # int() refuses 4,300 digits
])
def test_a_bad_vary_says_what_is_wrong(text, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        parse_vary(text)


@given(st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=20, unique=True))
def test_vary_gives_back_any_list_of_numbers(values):
    assert parse_vary("k=" + ",".join(map(str, values))).values == tuple(values)


@pytest.mark.parametrize("text, target", [
    ("win_rate.townsfolk in [0.5,0.6]", Target("win_rate.townsfolk", 0.5, 0.6)),
    ("  turns.mean in [ 8 , 9.5 ] ", Target("turns.mean", 8, 9.5)),
    ("win_rate.P1 in [50%,60%]", Target("win_rate.P1", 0.5, 0.6)),
])
def test_targets_parse(text, target):
    assert parse_target(text) == target


@pytest.mark.parametrize("text", ["win_rate.P1 in [0.6,0.5]", "win_rate.P1 [0.5,0.6]", "win_rate.P1 in [a,1]",
                                  "win_rate.P1 in 0.5..0.6", "in [0,1]"])
def test_bad_targets_are_refused(text):
    with pytest.raises(ValueError, match="--target"):
        parse_target(text)


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_an_interval_inside_the_target_means_the_point_is_too(a, b, c, lo):
    low, value, high = sorted((a, b, c))
    hi = max(lo, high)
    sure, point = meets(Measure(value, low, high, True), Target("m", lo, hi))
    assert point == (lo <= value <= hi)
    assert not sure or point


def test_combinations_are_the_full_grid_last_key_fastest():
    grid = combinations([Vary("a", (1, 2), ""), Vary("b", (7, 8, 9), "")])
    assert grid == [(1, 7), (1, 8), (1, 9), (2, 7), (2, 8), (2, 9)]


# --- addressing -------------------------------------------------------------------------------

def test_keys_name_table_cells_counts_props_dice_and_numbers_in_texts(jf_doc, flapjacks_doc):
    assert resolve(jf_doc, "tables.setup.4.houses").path == ("tables", "setup", "rows", 4, 3)
    assert resolve(jf_doc, "tables.setup.6.5").path == ("tables", "setup", "rows", 6, 4)
    index = [c["id"] for c in flapjacks_doc.data["cards"]].index("titanium_axe")
    assert resolve(flapjacks_doc, "cards.titanium_axe.count").path == ("cards", index, "count")
    assert resolve(flapjacks_doc, "cards.Titanium_Axe.props.dice").path == ("cards", index, "props", "dice")
    assert resolve(flapjacks_doc, "dice.chop.faces").path == ("dice", "chop", "faces")
    by_name = resolve(flapjacks_doc, "end.21_points.when")
    assert by_name.path == resolve(flapjacks_doc, "end.1.when").path
    assert (by_name.path, by_name.number_in_text) == (("end", 0, "when"), 0)


@pytest.mark.parametrize("key, words, hint", [
    ("tables.setup.4.house", "has no column 'house'", "did you mean 'houses'?"),
    ("tables.setup.9.houses", "has no row '9'", "rows: 2, 3, 4, 5, 6"),
    ("tabels.setup.4.houses", "the spec has no key 'tabels'", "did you mean 'tables'?"),
    ("tables.setup.4", "is a list; name one of its cells", "tables.setup.4.veggies"),
    ("roles", "'roles' is a list, not a number", "giant, townsfolk"),
    ("roles.giant.nme", "'roles.giant' has no key 'nme'", "did you mean 'name'?"),
    ("roles.giant.name", "is a text with no number in it", "the text: giant"),
    ("roles.giant.count.1", "is the int 1, which has no '1'", None),
    ("end.2.when", "a text with no number", None),
    ("tables..4", "names joined by dots", None),
])
def test_a_key_that_names_no_number_is_a_located_error(jf_doc, key, words, hint):
    with pytest.raises(SpecError) as caught:
        resolve(jf_doc, key)
    error = caught.value
    assert error.message.startswith(f"--vary {key}: ") and words in error.message
    assert error.span is not None and error.span.file.endswith("game.yaml") and error.span.line > 0
    assert hint is None or hint in error.hint
    assert error.format().splitlines()[0].startswith(f"{error.span.file}:{error.span.line}:")


def test_a_text_with_several_numbers_needs_its_position(tmp_path):
    spec = (Path(JF) / "game.yaml").read_text().replace("when: game.turns_left = 0", "when: game.turns_left = 0 or 1 > 2")
    (tmp_path / "game.yaml").write_text(spec)
    (tmp_path / "turn.yaml").write_text((Path(JF) / "turn.yaml").read_text())
    doc = load_document(tmp_path)
    with pytest.raises(SpecError, match=r"holds 3 numbers \(1: 0, 2: 1, 3: 2\)"):
        resolve(doc, "end.4.when")
    second = resolve(doc, "end.the_jack_of_beans_was_flipped.when.2")
    changed = with_values(doc, [(second, 7)])
    assert changed.data["end"][3]["when"] == "game.turns_left = 0 or 7 > 2"


def test_changing_values_leaves_the_loaded_data_and_the_files_alone(jf_doc):
    files = sorted(Path(JF).glob("*.yaml"))
    before = [hashlib.sha256(f.read_bytes()).hexdigest() for f in files]
    changed = with_values(jf_doc, [(resolve(jf_doc, "tables.setup.4.houses"), 3),
                                   (resolve(jf_doc, "tables.setup.4.catches"), 2.5)])
    assert changed.data["tables"]["setup"]["rows"][4] == [7, 4, 4, 3, 2.5]
    assert isinstance(changed.data["tables"]["setup"]["rows"][4][3], int)
    assert jf_doc.data["tables"]["setup"]["rows"][4] == [7, 4, 4, 8, 8]
    assert [hashlib.sha256(f.read_bytes()).hexdigest() for f in files] == before


def test_a_value_that_makes_the_spec_invalid_is_located_and_names_the_vary(capsys):
    code, out, err = sweep(capsys, FLAPJACKS, "--players", "3", "--vary", "dice.chop.faces=6,0", "--games", "2")
    assert code == 1 and out == ""
    assert err.splitlines()[0].startswith(f"{FLAPJACKS}/game.yaml:") and "'faces' must be at least 1" in err
    assert "note: with the sweep setting dice.chop.faces=0" in err


def test_unknown_keys_are_all_reported_before_any_game(capsys):
    code, out, err = sweep(capsys, JF, "--players", "4", "--vary", "tables.setup.4.house=1",
                           "--vary", "tables.setup.4.catch=1", "--games", "2")
    assert code == 1 and out == ""
    assert "no column 'house'" in err and "no column 'catch'" in err and "did you mean 'catches'?" in err


# --- running ------------------------------------------------------------------------------------

def test_every_setting_is_played_with_its_values(jf_doc):
    """houses 0 lets the townsfolk win at once, catches 0 the giant (checked first): the values are applied."""
    varies = [Vary("tables.setup.3.catches", (0, 100), ""), Vary("tables.setup.3.houses", (0, 100, 6), "")]
    batch = Batch(JF, 3, 30, 5, ("random",) * 3)
    results = run_sweep(jf_doc, JF, varies, batch, "win_rate.townsfolk", Target("win_rate.townsfolk", 0.5, 0.6))
    assert [r.values for r in results] == combinations(varies)
    rates = {r.values: r.measure.value for r in results}
    assert rates[(0, 0)] == rates[(0, 100)] == rates[(0, 6)] == 0.0
    assert rates[(100, 0)] == 1.0
    unreachable = {"the giant caught enough townsfolk", "the townsfolk built enough houses"}
    assert not unreachable & set(next(r for r in results if r.values == (100, 100)).summary["end_conditions"])
    assert all(r.summary["completed"] == 30 for r in results)
    assert results[0].summary["end_conditions"] == {"the giant caught enough townsfolk": 30}


def test_the_settings_share_their_games_seeds(jf_doc):
    """Common random numbers: a setting that changes nothing replays the very same games."""
    key = "tables.setup.4.veggies"
    batch = Batch(JF, 4, 40, 4, ("random",) * 4)     # a batch where one more veggie changes a game
    first, second = run_sweep(jf_doc, JF, [Vary(key, (7, 8), "")], batch, "turns.mean", None)
    same = run_sweep(jf_doc, JF, [Vary(key, (7,), "")], batch, "turns.mean", None)[0]
    assert same.summary == first.summary
    assert first.summary["turns"] != second.summary["turns"] or first.summary["winners"] != second.summary["winners"]


def test_metrics_without_an_interval_meet_the_target_by_their_value():
    summary = {"turns": {"mean": 8.5}, "completed": 10}
    found = measure(summary, "turns.mean")
    assert found == Measure(8.5, 8.5, 8.5, False)
    assert meets(found, Target("turns.mean", 8, 9)) == (True, True)


@pytest.mark.subprocess
def test_one_and_two_workers_give_the_same_json(capsys):
    args = [JF, "--players", "4", "--vary", "tables.setup.4.houses=6,8", "--vary", "tables.setup.4.catches=7,9",
            "--games", "30", "--seed", "11", "--json", "--target", "win_rate.townsfolk in [0.5,0.6]"]
    code1, out1, _ = sweep(capsys, *args)
    code2, out2, _ = sweep(capsys, *args, "--workers", "2")
    assert code1 == code2 == 0
    assert last_json(out1) == last_json(out2)
    assert len(last_json(out1)["settings"]) == 4


def test_the_report_says_which_settings_meet_the_target(capsys):
    code, out, _ = sweep(capsys, JF, "--players", "3", "--vary", "tables.setup.3.houses=0,100",
                         "--vary", "tables.setup.3.catches=100", "--games", "60",
                         "--target", "win_rate.townsfolk in [90%,100%]", "--json")
    assert code == 0
    data = last_json(out)
    assert [(s["values"], s["meets"], s["point_in_range"]) for s in data["settings"]] == [
        ({"tables.setup.3.houses": 0, "tables.setup.3.catches": 100}, True, True),
        ({"tables.setup.3.houses": 100, "tables.setup.3.catches": 100}, False, False)]
    assert "1 of 2 settings meet win_rate.townsfolk in [90.0%, 100.0%] (95% interval inside)" in out
    assert "meets target" in out and "point in range" in out


@pytest.mark.parametrize("args, words", [
    (["--target", "win_rate.townfolk in [0.5,0.6]"], "did you mean 'win_rate.townsfolk'?"),
    (["--target", "win_rate.townsfolk in [0.6,0.5]"], "low end"),
    (["--vary", "x=1..20000"], "must go up"),
    (["--games", "0"], "--games must be at least 1"),
    (["--players", "9"], "2 to 6 players, not 9"),
])
def test_usage_errors_exit_2_with_one_line(capsys, args, words):
    base = {"--players": "4", "--games": "2"}
    for flag, value in zip(args[::2], args[1::2]):
        base[flag] = value
    argv = [JF, "--vary", "tables.setup.4.houses=8"] + [x for pair in base.items() for x in pair]
    if "--vary" in args:
        argv = [JF, "--vary", args[1], "--players", "4", "--games", "2"]
    code, out, err = sweep(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err


def test_a_sweep_that_changes_the_player_range_is_checked(capsys):
    code, _, err = sweep(capsys, JF, "--players", "4", "--vary", "players.max=3,6", "--games", "2")
    assert code == 2 and "with players.max=3, Jack's Friends is for 2 to 3 players, not 4" in err


def test_errors_of_any_kind_are_rulelang_errors(jf_doc):
    with pytest.raises(RulelangError):
        resolve(jf_doc, "nothing")


@given(st.lists(st.one_of(st.sampled_from(["tables", "setup", "4", "houses", "cards", "end", "1", "when", "roles",
                                           "giant", "count", "rows", "columns", "players", "max", "0", "-1"]),
                          st.text(max_size=6)), min_size=1, max_size=6))
def test_any_key_either_names_a_number_or_is_a_located_error(jf_doc, segments):
    key = ".".join(segments)
    try:
        address = resolve(jf_doc, key)
    except SpecError as error:
        assert error.message.startswith(f"--vary {key}: ") and error.span is not None
        return
    changed = with_values(jf_doc, [(address, 42)])
    assert changed.data != jf_doc.data or address.number_in_text is not None


def test_the_plot_is_drawn(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    image = tmp_path / "sweep.png"
    code, _, _ = sweep(capsys, JF, "--players", "4", "--vary", "tables.setup.4.houses=7,9", "--vary",
                       "tables.setup.4.catches=8,9", "--games", "20", "--plot", str(image),
                       "--target", "win_rate.townsfolk in [0.5,0.6]")
    assert code == 0 and image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_plot_without_matplotlib_is_refused_before_playing(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    code, out, err = sweep(capsys, JF, "--players", "4", "--vary", "tables.setup.4.houses=7", "--games", "20",
                           "--plot", str(tmp_path / "x.png"))
    assert code == 2 and out == "" and "--plot needs matplotlib" in err


@pytest.mark.parametrize("first, second", [("end.1.when", "end.21_points.when"), ("dice.chop.faces", "dice.chop.faces")])
def test_two_keys_for_one_number_are_refused(capsys, first, second):
    code, out, err = sweep(capsys, FLAPJACKS, "--players", "3", "--vary", f"{first}=20", "--vary", f"{second}=25",
                           "--games", "2")
    assert code == 2 and out == ""
    assert f"--vary {first} and --vary {second} name the same number" in err


def test_a_spawned_worker_builds_the_same_variant(jf_doc):
    """A worker that did not inherit the compiled variants (spawn, not fork) compiles them from the path."""
    from rulelang.lab import sweep as sweeping
    from rulelang.lab.simulate import play_game

    address = resolve(jf_doc, "tables.setup.4.houses")
    batch = Batch(JF, 4, 12, 2, ("random",) * 4)
    game = sweeping.build_variant(jf_doc, [address], (5.0,), "")
    expected = [play_game(game, batch, index) for index in range(12)]
    setting = ((address, 5.0),)
    assert (batch.source, setting) not in sweeping._VARIANTS
    try:
        number, records = sweeping._play_chunk(batch, setting, 3, 0, 12)
    finally:
        sweeping._VARIANTS.pop((batch.source, setting), None)
    assert number == 3 and records == expected
    assert any(r.condition == "the townsfolk built enough houses" for r in records)


def test_the_table_is_boxed_on_a_terminal_and_plain_otherwise(jf_doc):
    import io

    from rulelang.lab.sweep_report import print_sweep

    varies = [Vary("tables.setup.4.houses", (5, 9), "")]
    target = Target("win_rate.townsfolk", 0.5, 0.6)
    results = run_sweep(jf_doc, JF, varies, Batch(JF, 4, 10, 2, ("random",) * 4), target.metric, target)
    boxed, plain = io.StringIO(), io.StringIO()
    print_sweep(varies, results, target.metric, target, boxed, True)
    print_sweep(varies, results, target.metric, target, plain, False)
    assert "┃" in boxed.getvalue() and "┃" not in plain.getvalue() and "\x1b" not in plain.getvalue()
    assert "meets target" in plain.getvalue() and "settings meet" in boxed.getvalue()


PIG = str(ROOT / "examples" / "pig")


def test_a_param_is_varied_by_its_name_alone(capsys):
    """`--vary goal=...` sets the param's default, which the games play with: a goal of 1 ends in a few turns."""
    assert resolve(load_document(PIG), "goal").path == ("params", "goal", "default")
    code, out, _ = sweep(capsys, PIG, "--players", "2", "--vary", "goal=1,60", "--games", "30", "--json")
    assert code == 0
    turns = {s["values"]["goal"]: s["turns"]["mean"] for s in last_json(out)["settings"]}
    assert turns[1] < turns[60]


def test_a_param_both_varied_and_set_is_a_usage_error(capsys):
    code, _, err = sweep(capsys, PIG, "--players", "2", "--vary", "goal=5,6", "--param", "goal=5")
    assert code == 2 and "either varied or set" in err


@pytest.mark.parametrize("key, words", [
    ("tables.setup.4.²", "has no column '²'"),
    ("end.²", "'end' has no item '²'"),
    ("tables.setup.4.+1", "has no column '+1'"),
])
def test_a_position_in_no_ascii_digits_is_located(jf_doc, key, words):
    """str.isdigit takes '²', which int() refuses: the key was a bare ValueError, not a located one."""
    with pytest.raises(SpecError, match=words.replace("+", r"\+")):
        resolve(jf_doc, key)
