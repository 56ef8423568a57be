"""`rulelang play`: a game at the terminal, humans against bots, hot-seat.

A human is shown only ``state.view(player)`` and the play-by-play as
``rulelang run --as`` tells it to them (``views.Account``, the running form of
``views.events_for``): hidden cards stay "a card" unless revealed to them, the
secret choices of others stay secret, variables they may not see leave no
trace. Bots are handed their seat, as in every other loop. When the seat to choose passes from
one human to another (also between the secret choices of a simultaneous
decision) the screen is cleared, scrollback included, and the next human
presses Enter before their view is drawn, so nobody sees another's hand.
``q`` or the end of input stops the game cleanly.
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from typing import IO

from rulelang.engine.game import Game
from rulelang.engine.state import State
from rulelang.engine.views import Account
from rulelang.errors import RuleError
from rulelang.logs.narrate import narrate, view_sections
from rulelang.printable import printable, printable_lines
from rulelang.spec.inputs import whole_number

#: Clear the screen and the scrollback, and put the cursor home (VT100/xterm; tmux and most terminals).
CLEAR = "\033[H\033[2J\033[3J"
HUMAN = "human"


class Quit(Exception):
    """The human typed q, or the input ended."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH")
    parser.add_argument("--players", type=int, required=True, metavar="N")
    parser.add_argument("--seat", action="append", default=[], metavar="N=WHO",
                        help="who plays seat N (from 1): human, or an agent name; repeat for more seats")
    parser.add_argument("--seed", type=int, default=0, metavar="S")
    parser.add_argument("--agents", default="random", metavar="A,B,...",
                        help="bots for the seats no --seat names: one for all, or one per seat (default random)")


def seat_players(seats: list[str], agents: tuple[str, ...]) -> list[str]:
    """Who plays each seat: the bots of --agents, with the --seat choices put over them; ValueError if bad."""
    from rulelang.agents import AGENTS
    from rulelang.agents.policy import is_policy_spec, load_policy, policy_path
    from rulelang.errors import closest

    who = list(agents)
    for text in seats:
        found = re.fullmatch(r"\s*(\d+)\s*=\s*(\S+)\s*", text)
        if not found:
            raise ValueError(f"--seat {text!r}: expected N=human or N=AGENT, such as 1=human")
        seat, name = int(found.group(1)), found.group(2)
        if not 1 <= seat <= len(who):
            raise ValueError(f"--seat {text!r}: seats are 1 to {len(who)}")
        if is_policy_spec(name):
            load_policy(policy_path(name))      # a located error if the file is wrong
        elif name != HUMAN and name not in AGENTS:
            near = closest(name, [HUMAN, *AGENTS])
            raise ValueError(f"--seat {text!r}: unknown player '{name}'" + (f" (did you mean '{near}'?)" if near else "")
                             + f"; use human or one of: {', '.join(sorted(AGENTS))}")
        who[seat - 1] = name
    return who


def play_command(args: argparse.Namespace) -> int:
    from rulelang.agents.policy import check_policies
    from rulelang.errors import UsageError
    from rulelang.lab.command import game_and_agents

    game, agents = game_and_agents(args.path, args.players, args.agents, args.mods, args.params)
    try:
        who = seat_players(args.seat, agents)
    except ValueError as error:
        raise UsageError(str(error)) from None
    check_policies(game, who)          # a policy that does not fit the game is a located error before play
    table = Table(game, who, args.seed, sys.stdin, sys.stdout)
    try:
        table.play()
    except Quit:
        table.say("\nGame stopped; nothing was saved.")
    return 0


@dataclass
class Table:
    """One game at the terminal: the state, who sits where, and what each human has been shown."""

    game: Game
    who: list[str]
    seed: int
    given: IO[str]
    shown: IO[str]
    state: State | None = None
    accounts: dict[int | None, Account] = field(default_factory=dict)   # viewer -> what they have been told
    at_screen: int | None = None                           # the human now looking at the screen

    def say(self, text: str = "") -> None:
        """Write a line as it is: text from the spec in it has been made ``printable`` where it was put in."""
        self.shown.write(text + "\n")
        self.shown.flush()

    def play(self) -> None:
        from rulelang.agents import Table as Seats
        from rulelang.agents import make_agent
        from rulelang.engine.rng import batch_seed

        self.state = state = self.game.new_state(len(self.who), self.seed)
        bots = {seat: make_agent(name, batch_seed(self.seed, seat)) for seat, name in enumerate(self.who)
                if name != HUMAN}
        seats = Seats(state, [bots.get(seat) for seat in range(len(self.who))])     # bots see their seat only
        humans = [seat for seat, name in enumerate(self.who) if name == HUMAN]
        self.say(printable(f"{self.game.name}: {len(self.who)} players, seed {self.seed}; "
                           + ", ".join(f"P{s + 1} {name}" for s, name in enumerate(self.who))))
        while not state.over:
            decision = state.decision()
            if decision is None:
                raise RuleError("the game is stuck: it is not over and waits for no decision")
            player = decision.players[0]
            if not decision.options[player]:
                raise RuleError(f"P{player + 1} must choose but has no legal option")
            if player in bots:
                seats.decide(state, player, len(decision.options[player]))
            else:
                self.hand_over(player, humans)
                self.ask(player)
        self.finish(humans)

    def hand_over(self, player: int, humans: list[int]) -> None:
        """Clear the screen and wait for Enter when another human takes the seat."""
        if self.at_screen == player:
            return
        if self.at_screen is not None or len(humans) > 1:
            self.shown.write(CLEAR)
            self.say(f"P{player + 1}'s turn to choose. Pass the screen to P{player + 1} and press Enter "
                     "(q to quit).")
            self.read_line()
            self.shown.write(CLEAR)
        self.at_screen = player

    def ask(self, player: int) -> None:
        """Show the player's news and view, list their options, and take the one they pick."""
        state = self.state
        self.show_events(player)
        view = state.view(player)
        self.say(render_view(self.game, view))
        options = view["options"]
        self.say()
        self.say(printable(f"P{player + 1}, {view['prompt']}:"))
        for number, (_, label) in enumerate(options, 1):
            self.say(printable(f"  {number}. {label}"))
        while True:
            self.shown.write(f"Your choice (1-{len(options)}, q to quit): ")
            self.shown.flush()
            answer = self.read_line().strip()
            picked = whole_number(answer, signed=False)
            if picked is not None and 1 <= picked <= len(options):
                option_id, label = options[picked - 1]
                self.say(printable(f"  you chose: {label}"))
                state.apply(option_id, player)
                return
            self.say(f"Please type a number from 1 to {len(options)}, or q to quit.")

    def read_line(self) -> str:
        line = self.given.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            raise Quit
        return line

    def show_events(self, viewer: int | None, since: int = 0) -> None:
        """The events ``viewer`` (None: everyone) has not been told yet, as they may see them.

        ``since``: a new account starts telling from this event on, having taken in those before it.
        """
        account = self.accounts.get(viewer)
        if account is None:
            account = self.accounts[viewer] = Account(self.game, viewer)
            account.catch_up(self.state.events[:since])
        for event in account.catch_up(self.state.events):
            line = narrate(self.game, event)
            if line is not None:
                self.say(line)

    def finish(self, humans: list[int]) -> None:
        """The end: a lone human's news as they see it; with several, a cleared screen and public news."""
        if len(humans) == 1:
            self.show_events(humans[0])
        else:                       # several people share the screen; with none, the whole game is news
            if humans:
                self.shown.write(CLEAR)
            self.show_events(None, since=max((a.heard for a in self.accounts.values()), default=0))
        scores = self.state.scores()
        if scores is not None:
            self.say("Final scores: " + ", ".join(f"P{i + 1} {s}" for i, s in enumerate(scores)))


def render_view(game: Game, view: dict) -> str:
    """A player's view as a few readable lines (each ``printable``): the table's counters, each player, the zones."""
    lines = [""]
    for number, section in enumerate(view_sections(game, view)):
        if number == 0:
            lines.append(f"--- {section['title']} ---")
        lines += [f"  {label}: {value}" if value else f"  {label}" for label, value in section["rows"]]
    return printable_lines(lines)
