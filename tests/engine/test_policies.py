"""Policies as data: files checked against the game with located errors, agents that play them as
designed, deterministically, and the `--agents policy:PATH` of simulate, sweep and play."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang import RulelangError
from rulelang.agents import RandomAgent, make_agent
from rulelang.agents.policy import RULES, PolicyAgent, check_policies, is_policy_spec, load_policy
from rulelang.cli import main
from rulelang.engine.state import State
from rulelang.model.decisions import catalogue_options

from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
JACKS_DIR = ROOT / "games" / "jacks_friends"
JACKS = shipped("games/jacks_friends")
FLAP = shipped("games/flapjacks")
GIANT = str(JACKS_DIR / "policies" / "giant.yaml")
TOWNSFOLK = str(JACKS_DIR / "policies" / "townsfolk.yaml")
EAT = ["eat-one-meat", "eat-two-vegetables"]


def write(tmp_path: Path, text: str, name: str = "p.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def seats(players: int) -> list[str]:
    return [f"policy:{GIANT}"] + [TOWNSFOLK] * (players - 1)


def play(state: State, agents: list, watch=None) -> State:
    """Play to the end with one agent per seat; ``watch(state, decision, player, option)`` sees every choice."""
    while not state.over:
        decision = state.decision()
        player = decision.players[0]
        option = agents[player].choose(state, player)
        if watch is not None:
            watch(state, decision, player, option)
        state.apply(option, player)
    return state


def agents_for(players: int, seed: int) -> list:
    return [make_agent(name, seed * 10 + seat) for seat, name in enumerate(seats(players))]


# --- the shipped policies ----------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_designer_policies_fit_jacks_friends_at_every_player_count(players):
    check_policies(JACKS, seats(players))


def test_the_designer_policies_say_what_the_designer_did():
    giant, townsfolk = load_policy(GIANT), load_policy(TOWNSFOLK)
    assert (giant.role, townsfolk.role) == ("giant", "townsfolk")
    assert giant.decisions == {"5_catches_in_the_village.stolen": ["egg", "meat", "veggie"]}
    assert townsfolk.decisions == {"eat.choice": EAT, "3_build.eggs": ["highest"]}


def test_policies_play_as_designed_in_every_decision():
    """Always eat if able, spend every egg, steal eggs before meat before vegetables, over many games."""
    counts = {"eat": 0, "eggs": 0, "steal": 0}

    def check(state, decision, player, option):
        ids = [o.id for o in decision.options[player]]
        if decision.name == "eat.choice":
            counts["eat"] += 1
            assert option == next(i for i in EAT + ids if i in ids)
        elif decision.name == "3_build.eggs":
            counts["eggs"] += 1
            assert option == str(state.counter(player, "egg")) == max(ids, key=int)
        elif decision.name == "5_catches_in_the_village.stolen":
            counts["steal"] += 1
            assert option == next(i for i in ["egg", "meat", "veggie"] if i in ids)

    for seed in range(150):
        play(JACKS.new_state(4, seed), agents_for(4, seed), check)
    assert min(counts.values()) > 5, counts


def test_on_the_events_a_caught_townsfolk_with_food_never_goes_hungry():
    hungry_with_food = ate = 0
    for seed in range(150):
        state = JACKS.new_state(3, seed)
        food_before: dict[int, tuple[int, int]] = {}

        def note(state, decision, player, option, food_before=food_before):
            if decision.name == "eat.choice":
                food_before[len(state.events)] = (state.counter(player, "meat"), state.counter(player, "veggie"))
        play(state, agents_for(3, seed), note)
        for at, (meat, veggie) in food_before.items():
            chose = state.events[at]
            assert chose["type"] == "chose"
            if chose["option"] == "go-hungry-and-skip-the-next-turn":
                hungry_with_food += meat >= 1 or veggie >= 2
            else:
                ate += 1
    assert hungry_with_food == 0 and ate > 10


@pytest.mark.slow
def test_the_policies_change_the_outcome_against_random_play():
    """Townsfolk who always eat and spend every egg win more often than random townsfolk do."""
    def townsfolk_wins(agents_of) -> int:
        wins = 0
        for seed in range(1000):
            state = play(JACKS.new_state(4, seed), agents_of(seed))
            wins += state.winning_team() == "townsfolk"
        return wins
    designed = townsfolk_wins(lambda seed: [RandomAgent(seed)] + agents_for(4, seed)[1:])
    random_play = townsfolk_wins(lambda seed: [RandomAgent(seed)] + [RandomAgent(seed * 10 + s) for s in (1, 2, 3)])
    assert designed > random_play, (designed, random_play)     # about 70 games apart, three standard errors


# --- determinism ---------------------------------------------------------------------------------

def test_the_same_seed_plays_the_same_game_byte_for_byte():
    one = play(JACKS.new_state(5, 7), agents_for(5, 7))
    two = play(JACKS.new_state(5, 7), agents_for(5, 7))
    assert one.dumps() == two.dumps()


def test_a_policy_that_says_nothing_plays_the_games_random_plays(tmp_path):
    empty = write(tmp_path, "policy: nothing\ndecisions: {}\n")
    for seed in range(5):
        by_policy, by_random = FLAP.new_state(3, seed), FLAP.new_state(3, seed)
        play(by_policy, [PolicyAgent(100 + s, empty) for s in range(3)])
        rngs = [RandomAgent(100 + s) for s in range(3)]
        while not by_random.over:
            decision = by_random.decision()
            p = decision.players[0]
            by_random.apply_index(rngs[p].choose_index(by_random, p, len(decision.options[p])), p)
        assert by_policy.dumps() == by_random.dumps()


@examples(20)
@given(seed=st.integers(0, 2**31), data=st.data())
def test_any_preferences_drawn_from_the_game_always_give_a_legal_option(tmp_path_factory, seed, data):
    """A policy of any preferences the checker accepts never answers with something the game does not offer."""
    lines = ["policy: drawn", f"fallback: {data.draw(st.sampled_from(['random', 'first', 'last']))}", "decisions:"]
    for name, sites in JACKS.decisions.items():
        known = catalogue_options(sites) or [(str(n), str(n)) for n in range(4)]
        words = [oid for oid, _ in known] + [label for _, label in known] + \
            [r for r in RULES if sites[0].numeric or r not in ("highest", "lowest")]
        items = data.draw(st.lists(st.sampled_from(words), min_size=1, max_size=4))
        lines.append(f"  {name}: {json.dumps(items)}")
    path = tmp_path_factory.mktemp("drawn") / "drawn.yaml"
    path.write_text("\n".join(lines) + "\n")
    agent = PolicyAgent(seed, str(path))
    agent.policy.picks(JACKS)                        # the checker accepts it
    state = JACKS.new_state(4, seed)

    def legal(state, decision, player, option):
        assert option in [o.id for o in decision.options[player]]
    play(state, [agent] * 4, legal)


# --- located errors ----------------------------------------------------------------------------

BAD = """policy: bad
role: giant
decisions:
  eat.choise: [eat-one-meat]
  3_build.eggs: [most]
  5_catches_in_the_village.stolen: [eggs, first]
  eat.choice: highest
"""


def test_every_mistake_of_a_policy_is_located_with_a_hint(tmp_path):
    path = write(tmp_path, BAD)
    with pytest.raises(RulelangError) as caught:
        load_policy(path).picks(JACKS)
    text = caught.value.format()
    assert f"{path}:4:3: error: 'Jack's Friends' asks no decision named 'eat.choise'" in text
    assert "did you mean 'eat.choice'?" in text
    assert f"{path}:5:18: error: 'most' is not a number or a rule" in text
    assert f"{path}:6:37: error: '5_catches_in_the_village.stolen' has no option 'eggs'" in text
    assert "did you mean 'egg'?" in text and "its options: egg, meat, veggie" in text
    assert f"{path}:7:15: error: 'highest' compares numbers" in text


def test_a_policy_for_another_role_or_game_is_refused_before_play(tmp_path):
    with pytest.raises(RulelangError, match="the policy is for the role 'giant', but P2 is 'townsfolk'"):
        check_policies(JACKS, [GIANT, GIANT, TOWNSFOLK])
    with pytest.raises(RulelangError) as caught:
        check_policies(FLAP, [GIANT, "random", "random"])
    assert "this policy is for 'Jack's Friends', not 'Flapjacks & Sasquatches'" in caught.value.format()


def test_a_file_that_is_not_a_policy_or_breaks_the_schema_is_located(tmp_path):
    with pytest.raises(RulelangError, match="not a policy file"):
        load_policy(write(tmp_path, "game: Pig\n", "game.yaml"))
    with pytest.raises(RulelangError) as caught:
        load_policy(write(tmp_path, "policy: x\ndecisions: {eat.choice: first}\nfallbak: first\n", "typo.yaml"))
    assert ":3:1:" in caught.value.format() and "fallbak" in caught.value.format()
    with pytest.raises(RulelangError) as caught:
        load_policy(write(tmp_path, "policy: x\ndecisions: {eat.choice: first}\nfallback: best\n", "fb.yaml"))
    assert ":3:11:" in caught.value.format()


def test_a_folder_or_nothing_is_no_policy(tmp_path):
    with pytest.raises(RulelangError, match="is a folder; a policy is one YAML file"):
        load_policy(str(tmp_path))
    with pytest.raises(RulelangError, match="needs a file"):
        load_policy("")


def test_only_yaml_files_and_policy_prefixes_are_policies():
    assert is_policy_spec("policy:x") and is_policy_spec("a/b.yaml") and is_policy_spec("B.YML")
    assert not is_policy_spec("random") and not is_policy_spec("mcts")


# --- the command line -------------------------------------------------------------------------

def test_simulate_plays_policies_from_the_command_line(capsys):
    code = main(["simulate", str(JACKS_DIR), "--players", "3", "--games", "40", "--seed", "2", "--json",
                 "--agents", ",".join(seats(3))])
    out = capsys.readouterr().out
    assert code == 0
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["completed"] == 40 and summary["agents"] == seats(3)


def test_simulate_with_a_wrong_policy_prints_the_located_error_and_plays_nothing(tmp_path, capsys):
    path = write(tmp_path, BAD)
    code = main(["simulate", str(JACKS_DIR), "--players", "3", "--games", "5", "--agents", path])
    captured = capsys.readouterr()
    assert code == 1 and "Win rate" not in captured.out
    assert f"{path}:4:3: error: 'Jack's Friends' asks no decision named 'eat.choise'" in captured.err


def test_play_seats_a_policy_as_a_bot():
    from rulelang.cli.play import seat_players
    assert seat_players([f"2={TOWNSFOLK}"], ("random", "random", "random")) == ["random", TOWNSFOLK, "random"]


def test_policy_batches_are_the_same_for_any_number_of_workers(capsys):
    """Each worker loads the file itself; the games are those of one process."""
    summaries = []
    for workers in ("1", "2"):
        assert main(["simulate", str(JACKS_DIR), "--players", "4", "--games", "30", "--seed", "5", "--json",
                     "--workers", workers, "--agents", ",".join(seats(4))]) == 0
        summaries.append(json.loads(capsys.readouterr().out.strip().splitlines()[-1]))
    assert summaries[0] == summaries[1]


class ViewOnly:
    """What the seat of the agent protocol gives an agent: the player's view, their options and the rules."""

    def __init__(self, state: State, player: int):
        self._state, self.player, self.game = state, player, state.game

    def view(self) -> dict:
        return self._state.view(self.player)

    @property
    def options(self):
        return self._state.decision().options.get(self.player, ())


def test_through_a_seat_a_policy_reads_the_decision_name_from_the_view_and_plays_the_same():
    for seed in range(20):
        by_state, by_seat = JACKS.new_state(4, seed), JACKS.new_state(4, seed)
        play(by_state, agents_for(4, seed))
        seat_agents = agents_for(4, seed)
        while not by_seat.over:
            player = by_seat.decision().players[0]
            by_seat.apply(seat_agents[player].choose(ViewOnly(by_seat, player)), player)
        assert by_state.dumps() == by_seat.dumps()


def test_at_a_table_of_seats_a_policy_plays_the_same_games_as_with_the_state():
    """The agent loop of simulate hands agents a Seat; the policy reads seat.decision() and plays alike."""
    from rulelang.agents import Table, play_out
    for seed in range(20):
        by_state, at_table = JACKS.new_state(4, seed), JACKS.new_state(4, seed)
        play(by_state, agents_for(4, seed))
        play_out(at_table, agents_for(4, seed))
        assert by_state.dumps() == at_table.dumps()
    table = Table(JACKS.new_state(3, 0), agents_for(3, 0))
    assert table.seats[1].decision().name == "choose_locations.at"


def test_the_agent_registry_makes_policies_from_either_spelling(tmp_path):
    from rulelang.agents import parse_agent
    for text in (f"policy:{TOWNSFOLK}", TOWNSFOLK):
        agent = make_agent(text, 3)
        assert isinstance(agent, PolicyAgent) and agent.name == "townsfolk"
        assert parse_agent(text).text == text
    bad = write(tmp_path, "policy: bad\ndecisions: {eat.choise: first}\n")
    make_agent(bad, 0)                                   # its structure is sound ...
    with pytest.raises(RulelangError, match="asks no decision named 'eat.choise'"):
        check_policies(JACKS, [GIANT, bad])              # ... but the game asks no such decision


@pytest.mark.parametrize("preference", ["'²'", "'--5'", "'+-5'"])
def test_a_number_in_no_ascii_digits_is_located_in_the_policy(tmp_path, preference):
    """str.isdigit takes '²' and one stripped sign left '-5': int() refused both, an internal error."""
    path = write(tmp_path, f"policy: odd\nrole: giant\ndecisions:\n  3_build.eggs: [{preference}]\n")
    with pytest.raises(RulelangError) as caught:
        load_policy(path).picks(JACKS)
    assert f"{path}:4:18: error: '{preference[1:-1]}' is not a number or a rule" in caught.value.format()
