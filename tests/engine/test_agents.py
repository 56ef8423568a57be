"""Agents see only their seat: the protocol, the sampling of hidden cards, greedy and MCTS, plug-ins."""
from __future__ import annotations

import hashlib
import json
import random
import shutil
import types
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import AGENTS, GreedyAgent, MctsAgent, RandomAgent, Seat, Table, make_agent, parse_agent, play_out
from rulelang.agents.determinize import determinize, seen_zones
from rulelang.cli import main
from rulelang.engine.rng import outputs, start_state, stream_block
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.lab.simulate import Batch, run_batch, seat_agents
from rulelang.lab.stats import wilson

from helpers.examples import examples
from helpers.positions import random_position, reachable

ROOT = Path(__file__).resolve().parents[2]
JF = ROOT / "games" / "jacks_friends"
FLAPJACKS = ROOT / "games" / "flapjacks"
PIG = ROOT / "examples" / "pig"


@pytest.fixture(scope="module")
def flapjacks():
    return rulelang.load_game(FLAPJACKS)


@pytest.fixture(scope="module")
def jacks_friends():
    return rulelang.load_game(JF)


def derive_pig(tmp_path: Path, *changes: tuple[str, str]) -> Path:
    """A copy of examples/pig with each (old, new) text replaced."""
    dest = tmp_path / "pig"
    shutil.copytree(PIG, dest)
    spec = dest / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    spec.write_text(text, encoding="utf-8")
    return dest


def until_choice_of(state: State, player: int, rng: random.Random, kind: str | None = None,
                    skip: int = 0) -> State:
    """Play at random until ``player`` must choose (a decision of ``kind``), after ``skip`` such moments."""
    for _ in range(100_000):
        decision = state.decision()
        assert decision is not None, "the game ended first"
        if decision.players[0] == player and (kind is None or decision.kind == kind):
            if skip == 0:
                return state
            skip -= 1
        chooser = decision.players[0]
        state.apply_index(rng.randrange(len(decision.options[chooser])), chooser)
    raise AssertionError("no such decision")


def zone_ids(state: State, label: str) -> int:
    return state.lay.zone_labels.index(label)


# --- the seat: all an agent gets ------------------------------------------------------

class Spy:
    """An agent that keeps whatever it is handed."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.given: list[object] = []

    def choose(self, seat):
        self.given.append(seat)
        return self.rng.randrange(seat.count)


def test_agents_are_handed_seats_never_the_state(flapjacks):
    spies = [Spy(p) for p in range(4)]
    state = play_out(flapjacks.new_state(4, 3), spies)
    assert state.over
    handed = [thing for spy in spies for thing in spy.given]
    assert handed and all(type(thing) is Seat for thing in handed)
    assert all(thing.player == p for p, spy in enumerate(spies) for thing in spy.given)


def test_no_attribute_path_leads_from_a_seat_to_the_state(flapjacks):
    state = until_choice_of(flapjacks.new_state(4, 5), 0, random.Random(1), kind="play")
    seat = Table(state, RandomAgent(0)).seats[0]
    everything = reachable(seat)
    assert any(obj is seat.game for obj in everything)          # the walk does go places
    assert not [obj for obj in everything if isinstance(obj, State)]


def test_the_walk_would_find_a_state_held_in_an_attribute(flapjacks):
    """The check above can fail: an object that keeps the state as an attribute is caught."""
    state = flapjacks.new_state(4, 5)
    holder = types.SimpleNamespace(inner=types.SimpleNamespace(_state=state))
    assert any(obj is state for obj in reachable(holder, limit=2_000_000))


def test_a_seat_shows_its_players_view_and_options(flapjacks):
    state = until_choice_of(flapjacks.new_state(4, 8), 2, random.Random(2), kind="play")
    seats = Table(state, RandomAgent(0)).seats
    assert seats[2].view() == state.view(2)
    assert [o.id for o in seats[2].options] == state.legal(2) and seats[2].count == len(state.legal(2))
    assert seats[2].kind == "play" and seats[2].prompt == state.decision().prompt
    assert seats[0].options == () and seats[0].kind is None and seats[0].count == 0
    assert seats[0].view() == state.view(0) and seats[0].view() != seats[2].view()
    assert seats[2].decision() == state.decision() and seats[0].decision() is None
    state.apply_index(0, 2)            # the seat follows the game as it goes on
    assert seats[2].view() == state.view(2)


# --- samples: the hidden cards dealt again ---------------------------------------------

def swap_cards(state: State, a: tuple[str, int], b: tuple[str, int]) -> State:
    """A copy of the game with two cards exchanged between places (zone label, position)."""
    other = state.copy()
    (za, pa), (zb, pb) = [(zone_ids(other, label), pos) for label, pos in (a, b)]
    ca, cb = other.zones[za][pa], other.zones[zb][pb]
    other.zones[za][pa], other.zones[zb][pb] = cb, ca
    other.loc[ca], other.loc[cb] = zb, za
    return other


def a_different_card(state: State, hand: str, deck: str) -> tuple[int, int]:
    """Positions in ``hand`` and ``deck`` of two cards of one deck but of different kinds."""
    types_ = state.game.card_type
    hz, dz = zone_ids(state, hand), zone_ids(state, deck)
    for i, card in enumerate(state.zones[hz]):
        for j, other in enumerate(state.zones[dz]):
            if types_[card].zone == types_[other].zone and types_[card].id != types_[other].id:
                return i, j
    raise AssertionError("no two cards to exchange")


def test_a_bot_cannot_tell_games_that_differ_only_in_an_opponents_hand(flapjacks):
    """P1 sees the same in both games; its samples, and so its choices, are the same."""
    state = until_choice_of(flapjacks.new_state(4, 11), 0, random.Random(4), kind="play")
    i, j = a_different_card(state, "hand:P2", "jack_deck")
    other = swap_cards(state, ("hand:P2", i), ("jack_deck", j))
    assert other.zone("hand", 1) != state.zone("hand", 1)        # the truth differs ...
    assert other.view(1) != state.view(1)                        # ... and P2 can see it
    assert other.view(0) == state.view(0)                        # P1 cannot
    seat_a, seat_b = Seat(state, 0), Seat(other, 0)
    assert seat_a.sample(random.Random(9)).dumps() == seat_b.sample(random.Random(9)).dumps()
    for make in (lambda: MctsAgent(5, iterations=30), lambda: GreedyAgent(5)):
        assert make().choose(seat_a) == make().choose(seat_b)


def test_a_sample_that_copied_the_truth_would_tell_them_apart(flapjacks):
    """The test above can fail: the true states' own copies differ."""
    state = until_choice_of(flapjacks.new_state(4, 11), 0, random.Random(4), kind="play")
    i, j = a_different_card(state, "hand:P2", "jack_deck")
    other = swap_cards(state, ("hand:P2", i), ("jack_deck", j))
    assert state.copy().dumps() != other.copy().dumps()


def test_others_secret_choices_so_far_are_not_in_the_sample(jacks_friends):
    """Jack's Friends: P4 chooses a location last; what P1-P3 chose is asked again in the sample."""
    state = until_choice_of(jacks_friends.new_state(4, 2), 3, random.Random(3), kind="secret")
    pend = state.pending
    assert pend["chosen"][:3] != [None] * 3 and pend["chosen"][3] is None
    other = state.copy()
    other.pending["chosen"][0] = (pend["chosen"][0] + 1) % len(pend["options"][0])   # the giant chose elsewhere
    assert other.pending != state.pending and other.view(3) == state.view(3)
    asked = Seat(state, 3).decision()
    assert asked.players == (3,) and set(asked.options) == {3} and asked.kind == "secret"
    sample = Seat(state, 3).sample(random.Random(1))
    assert sample.pending["chosen"] == [None] * 4
    assert sample.dumps() == Seat(other, 3).sample(random.Random(1)).dumps()
    for seat in (Seat(state, 3), Seat(other, 3)):
        assert seat.options == Seat(state, 3).options
    assert MctsAgent(2, iterations=40).choose(Seat(state, 3)) == MctsAgent(2, iterations=40).choose(Seat(other, 3))


def family_counts(state: State, zid: int) -> Counter:
    return Counter(state.game.card_type[c].zone for c in state.zones[zid])


@examples(25)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 60), players=st.integers(2, 6), draw=st.integers(0, 2**32))
def test_a_sample_agrees_with_the_view_and_redeals_only_hidden_cards(flapjacks, seed, moves, players, draw):
    """Sampled where an agent samples: for the player who must choose."""
    state = random_position(flapjacks, players, seed, moves)
    if state is None:
        return
    observer = state.decision().players[0]
    truth = state.dumps()
    sample = determinize(state, observer, random.Random(draw))
    assert state.dumps() == truth                                   # the true game is untouched
    assert sample.view(observer) == state.view(observer)
    seen = seen_zones(state, observer)
    assert sorted(c for cards in sample.zones for c in cards) == list(range(len(flapjacks.card_type)))
    for zid, cards in enumerate(sample.zones):
        assert all(sample.loc[c] == zid for c in cards)
        if seen[zid]:
            assert cards == state.zones[zid]
        else:
            assert len(cards) == len(state.zones[zid])
            assert family_counts(sample, zid) == family_counts(state, zid)
    assert sample.events == [] and sample.rng != state.rng and sample.seed == 0


def test_samples_differ_from_the_truth_and_from_each_other(flapjacks):
    state = until_choice_of(flapjacks.new_state(4, 21), 0, random.Random(6), kind="play", skip=3)
    hidden = [zone_ids(state, label) for label in ("jack_deck", "hand:P2", "hand:P3", "hand:P4")]
    samples = [Seat(state, 0).sample(random.Random(k)) for k in range(6)]
    for sample in samples:
        assert [sample.zones[z] for z in hidden] != [state.zones[z] for z in hidden]
        assert sample.zones[zone_ids(state, "hand:P1")] == state.zones[zone_ids(state, "hand:P1")]
    assert len({s.dumps() for s in samples}) == len(samples)


def test_a_sample_is_the_agents_own_to_play(flapjacks):
    state = until_choice_of(flapjacks.new_state(4, 2), 0, random.Random(2))
    truth = state.dumps()
    sample = Seat(state, 0).sample(random.Random(0))
    play_out(sample, RandomAgent(1))
    assert sample.over and state.dumps() == truth and not state.over


# --- greedy and MCTS ---------------------------------------------------------------------

def events_of(game, players: int, seed: int, agents: list[str]) -> list[dict]:
    state = game.new_state(players, seed)
    play_out(state, [make_agent(name, seed * 7 + seat) for seat, name in enumerate(agents)])
    assert state.over
    return state.events


@pytest.mark.parametrize("bot", ["greedy", "mcts:iterations=8"])
def test_bots_play_the_same_game_from_the_same_seeds(jacks_friends, bot):
    agents = [bot, "random", bot, "random"]
    assert events_of(jacks_friends, 4, 4, agents) == events_of(jacks_friends, 4, 4, agents)


@pytest.mark.slow
def test_mcts_beats_random_at_pig(tmp_path):
    """Pig to 30 rewards holding at the right time; MCTS finds it, random play does not."""
    pig = rulelang.load_game(PIG, params={"goal": 30})
    batch = Batch(str(PIG), 2, 100, 1, seat_agents("mcts:iterations=30,random", 2), params=(("goal", 30),))
    records = run_batch(pig, batch)
    assert not [r.error for r in records if r.error]
    wins = sum(0 in r.winners for r in records)
    low, _ = wilson(wins, len(records))
    assert low > 0.5, f"mcts won {wins} of {len(records)}"


def test_greedy_follows_the_heuristic_the_spec_declares(tmp_path):
    """With the score (banked points), holding always looks best; with `heuristic: p.pot`, rolling on."""
    def holds(path: Path) -> float:
        game = rulelang.load_game(path)
        picks = Counter()
        for seed in range(3):
            state = game.new_state(2, seed)
            greedy = GreedyAgent(seed)
            seat = Seat(state, 0)
            for _ in range(400):
                if state.over:
                    break
                decision = state.decision()
                if decision.players[0] == 0:
                    choice = greedy.choose(seat)
                    picks[choice] += 1
                    state.apply(choice, 0)
                else:
                    state.apply_index(seed % 2, decision.players[0])
        return picks["hold"] / sum(picks.values())

    assert holds(PIG) == 1.0
    first = tmp_path / "a"
    first.mkdir()
    assert holds(derive_pig(first, ("score: p.banked", "score: p.banked\nheuristic: p.pot"))) < 0.1


def test_a_heuristic_that_names_nothing_is_a_located_error(tmp_path):
    with pytest.raises(RulelangError) as caught:
        rulelang.load_game(derive_pig(tmp_path, ("score: p.banked", "score: p.banked\nheuristic: p.nonsense")))
    report = caught.value.format()
    assert "game.yaml:" in report and "nonsense" in report


def test_a_heuristic_must_be_rule_text(tmp_path):
    with pytest.raises(RulelangError) as caught:
        rulelang.load_game(derive_pig(tmp_path, ("score: p.banked", "score: p.banked\nheuristic: [1]")))
    assert "heuristic" in caught.value.format()


def test_mcts_with_a_time_budget_chooses_a_legal_option(jacks_friends):
    state = until_choice_of(jacks_friends.new_state(4, 1), 0, random.Random(1))
    seat = Seat(state, 0)
    assert MctsAgent(1, ms=20).choose(seat) in {o.id for o in seat.options}


# --- agents by name, and plug-ins ------------------------------------------------------------

@pytest.mark.parametrize("text, kind, settings_", [
    ("random", "RandomAgent", {}),
    ("mcts:iterations=200", "MctsAgent", {"iterations": 200}),
    ("mcts:ms=50", "MctsAgent", {"ms": 50}),
    ("mcts:iterations=20:c=1.5", "MctsAgent", {"iterations": 20, "c": 1.5}),
    ("greedy:samples=2", "GreedyAgent", {"samples": 2}),
])
def test_agent_specs(text, kind, settings_):
    agent = make_agent(text, 3)
    assert type(agent).__name__ == kind
    for key, value in settings_.items():
        assert getattr(agent, key) == value


@pytest.mark.parametrize("text, message", [
    ("mcst", "unknown agent 'mcst' (did you mean 'mcts'?)"),
    ("mcts:iterations", "'iterations' is not KEY=VALUE"),
    ("mcts:depth=3", "agent 'mcts:depth=3': "),
    ("mcts:iterations=0", "iterations must be a whole number of at least 1, not 0"),
    ("mcts:iterations=x", "iterations must be a whole number of at least 1, not 'x'"),
    ("mcts:ms=nan", "ms must be a number more than 0"),
    ("greedy:samples=1.5", "samples must be a whole number of at least 1, not 1.5"),
    ("mcts:iterations=5:ms=5", "iterations or ms, not both"),
    ("no_such_module_here:Bot", "cannot import the agent module 'no_such_module_here'"),
    ("json:Nothing", "the agent module 'json' has no class 'Nothing'"),
    ("json:JSONDecoder", "json:JSONDecoder has no choose(seat) method"),
])
def test_bad_agent_specs_say_what_is_wrong(text, message):
    with pytest.raises(ValueError) as caught:
        parse_agent(text)
    assert message in str(caught.value)


def test_every_built_in_agent_is_registered():
    assert set(AGENTS) == {"random", "first", "greedy", "mcts"}


PLUGIN = '''
class Highest:
    """Takes the last option; reads only its seat."""

    def __init__(self, seed, bias=0):
        self.bias = bias
        self.views = 0

    def choose(self, seat):
        view = seat.view()
        assert view["you"] == seat.name
        self.views += 1
        return seat.count - 1 - self.bias
'''


def test_a_plug_in_agent_plays_from_the_command_line(tmp_path, capsys):
    plugin = tmp_path / "mybots.py"
    plugin.write_text(PLUGIN, encoding="utf-8")
    code = main(["simulate", str(JF), "--players", "4", "--games", "20", "--seed", "2", "--json",
                 "--agents", f"{plugin}:Highest,random,{plugin}:Highest:bias=0,random"])
    out = capsys.readouterr().out
    assert code == 0
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["errors"]["count"] == 0
    assert summary["agents"][0] == f"{plugin}:Highest"


def test_a_plug_in_by_module_name(tmp_path, monkeypatch):
    (tmp_path / "mybots_by_name.py").write_text(PLUGIN, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    agent = make_agent("mybots_by_name:Highest:bias=1", 0)
    assert agent.bias == 1


def test_a_failing_plug_in_is_reported_with_its_seed_not_a_traceback(tmp_path, capsys):
    plugin = tmp_path / "broken.py"
    plugin.write_text("class Bad:\n    def __init__(self, seed):\n        pass\n"
                      "    def choose(self, seat):\n        return 'no such option'\n", encoding="utf-8")
    code = main(["simulate", str(JF), "--players", "4", "--games", "3", "--json", "--agents", f"{plugin}:Bad"])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err
    assert "'no such option' is not an option of P1" in err
    assert json.loads(out.strip().splitlines()[-1])["errors"]["count"] == 3


@pytest.mark.subprocess
def test_mcts_settings_reach_the_batch(jacks_friends):
    batch = Batch(str(JF), 4, 4, 1, seat_agents("mcts:iterations=4,random,random,random", 4))
    first = run_batch(jacks_friends, batch)
    again = run_batch(jacks_friends, batch, workers=2)
    assert [r.winners for r in first] == [r.winners for r in again]
    assert not [r for r in first if r.error]


def test_a_played_card_waiting_for_answers_stays_in_its_hand(flapjacks):
    """While P1 may answer a card another player played, that card is public: samples keep it in place."""
    for seed in range(200):
        state = flapjacks.new_state(4, seed)
        rng = random.Random(seed)
        while not state.over and not (state.decision().kind == "answer" and state.decision().players[0] == 0):
            decision = state.decision()
            state.apply_index(rng.randrange(len(decision.options[decision.players[0]])), decision.players[0])
        if not state.over:
            break
    else:
        pytest.fail("no answer decision for P1 in 200 games")
    played = [e for e in state.events if e["type"] == "played"][-1]
    card = played["id"]
    where = state.loc[card]
    assert not seen_zones(state, 0)[where]                     # it lies in a hand P1 cannot see
    for k in range(5):
        sample = Seat(state, 0).sample(random.Random(k))
        assert sample.loc[card] == where and sample.zones[where].index(card) == state.zones[where].index(card)


def _stream(seed: int, count: int) -> list[int]:
    """The first ``count`` numbers of the stream keyed by ``seed``, in the order they are drawn."""
    blocks = -(-count // 8)             # eight numbers a block
    return [word for block in range(blocks) for word in reversed(stream_block(seed, block))][:count]


@examples(200)
@given(seed=st.integers(min_value=-2**70, max_value=2**70),
       counts=st.lists(st.integers(min_value=1, max_value=2**40), min_size=1, max_size=30))
def test_random_agent_takes_one_number_of_its_stream_a_pick(seed, counts):
    """Pick k among c options is the k-th number w of the seed's stream scaled onto the options: (w * c) >> 64."""
    agent = RandomAgent(seed)
    picks = [agent.pick_index(0, count) for count in counts]
    assert picks == [(word * count) >> 64 for word, count in zip(_stream(seed, len(counts)), counts)]
    assert all(0 <= pick < count for pick, count in zip(picks, counts))


def test_the_first_block_of_a_stream_is_the_hash_of_its_seed_and_block():
    """Held to BLAKE2b itself, so the stream is the same on any machine and any Python."""
    digest = hashlib.blake2b(b"5,0", digest_size=64, person=b"rulelang-agent").digest()
    words = [int.from_bytes(digest[k:k + 8], "little") for k in range(0, 64, 8)]
    assert _stream(5, 8) == words


def test_random_agent_picks_evenly():
    """30,000 picks among 3 from one seed: each option within 1 % of a third (the standard error is 0.27 %)."""
    agent = RandomAgent(11)
    taken = Counter(agent.pick_index(0, 3) for _ in range(30_000))
    assert all(abs(taken[k] / 30_000 - 1 / 3) < 0.01 for k in range(3))


def test_an_agents_stream_is_not_its_games_stream():
    """An agent and a game made with the same seed draw unrelated numbers (the game's: engine.rng.outputs)."""
    for seed in range(20):
        assert not set(_stream(seed, 16)) & set(outputs(start_state(seed), 16))


def test_neighbouring_seeds_pick_independently():
    """The first coin flip of seeds 0..3999 and of seeds 1..4000 agree about half the time (about 2,000 of
    4,000, sd 32), and each seed's first two flips likewise."""
    flips = [RandomAgent(seed).pick_index(0, 2) for seed in range(4001)]
    assert abs(sum(a == b for a, b in zip(flips, flips[1:])) - 2000) < 160
    pairs = [(agent.pick_index(0, 2), agent.pick_index(0, 2)) for agent in map(RandomAgent, range(4000))]
    assert abs(sum(a == b for a, b in pairs) - 2000) < 160


def test_random_agents_rng_is_a_generator_seeded_with_its_seed():
    assert RandomAgent(7).rng.getstate() == random.Random(7).getstate()


def test_random_agent_refuses_to_pick_among_no_options():
    with pytest.raises(ValueError, match="no option"):
        RandomAgent(0).pick_index(0, 0)
