"""Games played through the page, seat by seat: humans choose through the API, bots move by themselves.

Each human seat is told what ``rulelang play`` tells it: its own view (``State.view``), named with labels
(``cli.play.view_sections``), and the play-by-play as that seat may see it (``views.Account``: the secret
picks of others stay "?" until they are revealed, hidden cards stay "a card"). The game waits only for
human seats. The full event log names every secret, so it is handed out only once the game is over.
"""
from __future__ import annotations

import threading
from typing import Any

from rulelang.engine.game import Game
from rulelang.engine.limits import MAX_DECISIONS
from rulelang.engine.views import Account
from rulelang.errors import RulelangError
from rulelang.printable import printable
from rulelang.serve import ApiError
from rulelang.serve.folder import Folder
from rulelang.serve.kept import Kept

HUMAN = "human"
#: The most games kept at once; starting another forgets the oldest.
MAX_SESSIONS = 32
#: The agents the page may seat besides policy files (a MODULE:CLASS agent would import code: never).
BOTS = ("random", "first", "greedy", "mcts")


def checked_agent(folder: Folder, text: Any) -> str:
    """An agent spec from the page as the lab takes it: a known bot (with settings), or a policy file of the
    folder (``policy:PATH``, made absolute after the folder's checks). Anything else is a 400."""
    from rulelang.agents import parse_agent

    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, "an agent is a name such as random, greedy, mcts or policy:PATH", "")
    text = text.strip()
    if text.startswith("policy:"):
        path = folder.place(text[len("policy:"):].strip())
        spec = f"policy:{path}"
    else:
        head = text.split(":")[0].strip()
        if head not in BOTS:
            raise ApiError(400, f"unknown agent '{head}'", f"use one of {', '.join(BOTS)} or policy:PATH")
        spec = text
    try:
        parse_agent(spec)
    except ValueError as error:
        raise ApiError(400, str(error), "") from None
    except RulelangError as error:
        raise ApiError(400, error.format(), error.hint or "") from None
    return spec


class Session:
    """One game: its state, who sits where, each seat's account of the play so far."""

    def __init__(self, game: Game, who: list[str], seed: int) -> None:
        from rulelang.agents import Table, make_agent
        from rulelang.engine.rng import batch_seed

        self.game = game
        self.who = who
        self.lock = threading.Lock()
        self.error: str | None = None
        self.state = game.new_state(len(who), seed)
        self.bots = {seat: make_agent(name, batch_seed(seed, seat)) for seat, name in enumerate(who) if name != HUMAN}
        self.table = Table(self.state, [self.bots.get(seat) for seat in range(len(who))])
        self.accounts = {seat: Account(game, seat) for seat in range(len(who))}
        self.lines: dict[int, list[str]] = {seat: [] for seat in range(len(who))}
        self.advance()

    @property
    def over(self) -> bool:
        return self.state.over or self.error is not None

    def to_act(self) -> list[int]:
        """The seats (0-based) the game waits for."""
        if self.over:
            return []
        decision = self.state.decision()
        return list(decision.players) if decision is not None else []

    def advance(self) -> None:
        """Let the bots move until the game waits for a human or ends (a rule error ends it too)."""
        try:
            for _ in range(MAX_DECISIONS):
                if self.state.over:
                    return
                decision = self.state.decision()
                if decision is None:
                    self.error = "the game is stuck: it is not over and waits for no decision"
                    return
                bot = next((seat for seat in decision.players if seat in self.bots), None)
                if bot is None:
                    return
                self.table.decide(self.state, bot, len(decision.options[bot]))
            self.error = f"the game did not end after {MAX_DECISIONS:,} decisions"
        except RulelangError as error:
            self.error = error.format()

    def choose(self, seat: int, index: Any) -> None:
        """Seat ``seat`` (0-based) takes option ``index``; 409 when it is not theirs to choose or no such option."""
        if seat not in self.to_act():
            raise ApiError(409, f"P{seat + 1} has nothing to choose now", "ask for the game again to see who acts")
        decision = self.state.decision()
        assert decision is not None          # to_act() named the seat: the game waits for a decision
        options = decision.options[seat]
        if type(index) is not int or not 0 <= index < len(options):
            raise ApiError(409, "no such option now", "ask for the game again: the options have changed")
        try:
            self.state.apply(options[index].id, seat)
        except RulelangError as error:
            self.error = error.format()
            return
        self.advance()

    def answer(self, seat: int) -> dict[str, Any]:
        """What seat ``seat`` (0-based) may see now: the `GET api/play/GID?seat=K` answer."""
        from rulelang.logs.narrate import narrate, view_sections

        for event in self.accounts[seat].catch_up(self.state.events):
            said = narrate(self.game, event)
            if said is not None:
                self.lines[seat] += [line for line in said.split("\n") if line]
        view = self.state.view(seat)
        acting = seat in self.to_act()
        options = [{"index": i, "label": printable(str(label))} for i, (_, label) in enumerate(view.get("options", []))]
        sections = [{"title": printable(section["title"]),
                     "rows": [[printable(str(label)), printable(str(value))] for label, value in section["rows"]]}
                    for section in view_sections(self.game, view)]
        return {"seat": seat + 1, "players": len(self.who), "to_act": [p + 1 for p in self.to_act()],
                "view": sections, "options": options if acting else [],
                "prompt": printable(str(view.get("prompt", ""))) if acting else "",
                "log": list(self.lines[seat]), "over": self.over, "result": self.result()}

    def result(self) -> str | None:
        if self.error is not None:
            return printable(f"the game stopped: {self.error}")
        if not self.state.over:
            return None
        winners = ", ".join(self.state.winner_names()) or "nobody"
        team = self.state.winning_team()
        return printable(f"{self.state.result} at turn {self.state.turn}; winners: {team or winners}"
                         + (f" ({winners})" if team else ""))

    def event_log(self) -> str:
        """The whole event log as `run --log` writes it: only once the game is over (it names every secret)."""
        from rulelang.logs.logfile import event_line

        if not self.over:
            raise ApiError(409, "the event log is shown once the game is over",
                           "it names every card and secret pick, which the seats may not see yet")
        return "".join(event_line(event).decode("utf-8") for event in self.state.events)


class Sessions(Kept[Session]):
    """The games in progress, by id (at most MAX_SESSIONS)."""

    def __init__(self, folder: Folder) -> None:
        super().__init__(MAX_SESSIONS, "game", "start one with POST api/play")
        self.folder = folder

    def seats(self, body: dict[str, Any], game: Game) -> tuple[list[str], int]:
        """Who plays each seat and the seed, from a `POST api/play` body, checked."""
        players, seed, seats = body.get("players"), body.get("seed", 0), body.get("seats")
        if type(players) is not int or not game.min_players <= players <= game.max_players:
            raise ApiError(400, f"{game.name} is for {game.min_players} to {game.max_players} players",
                           "give players as a whole number in that range")
        if type(seed) is not int:
            raise ApiError(400, "the seed is a whole number", "")
        if not isinstance(seats, list) or len(seats) != players:
            raise ApiError(400, f"seats names who plays each of the {players} seats", 'such as ["human", "random"]')
        who = [HUMAN if seat == HUMAN else checked_agent(self.folder, seat) for seat in seats]
        return who, seed

    def start(self, game: Game, who: list[str], seed: int) -> str:
        from rulelang.agents.policy import check_policies

        try:
            check_policies(game, who)
            session = Session(game, who, seed)
        except RulelangError as error:
            raise ApiError(400, error.format(), error.hint or "") from None
        return self.add(session)

    @staticmethod
    def seat(session: Session, value: Any) -> int:
        """A seat from the page (1-based, a number or its text) as 0-based; 400 when it is none of the game's."""
        number = int(value) if isinstance(value, str) and value.isdigit() else value
        if type(number) is not int or not 1 <= number <= len(session.who):
            raise ApiError(400, f"seats are 1 to {len(session.who)}", "")
        return number - 1
