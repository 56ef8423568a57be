"""Simulate and sweep jobs: one at a time, in a worker thread, with progress and a way to cancel.

A job is checked in the request (the game loads, the agents are known bots or policy files of the folder,
the games are at most MAX_GAMES) and then played off the request thread, one process, by the lab's own
code: its answer is the summary `rulelang simulate --json` or `rulelang sweep --json` prints.
Cancelling sets a flag the progress callback reads after each game, so a job stops within one game.
"""
from __future__ import annotations

import argparse
import json
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulelang.errors import RulelangError, UsageError
from rulelang.serve import ApiError

#: The most games a job plays (a sweep's settings together); the page is for a quick look, the CLI for more.
MAX_GAMES = 20000
#: The most settings a sweep tries.
MAX_SETTINGS = 100


class Cancelled(Exception):
    """The job was cancelled; raised from the progress callback, between games."""


@dataclass
class Job:
    kind: str
    total: int
    work: Callable[[Callable[[int], None]], Any]
    state: str = "running"
    done: int = 0
    result: Any = None
    error: str | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def progress(self, games: int) -> None:
        self.done += games
        if self.cancel.is_set():
            raise Cancelled

    def run(self) -> None:
        try:
            self.result = self.work(self.progress)
            self.state = "done"
        except Cancelled:
            self.state = "cancelled"
        except RulelangError as error:
            self.error, self.state = error.format(), "failed"
        except (UsageError, ValueError) as error:
            self.error, self.state = str(error), "failed"
        except Exception as error:  # noqa: BLE001 - a bug of rulelang fails the job, not the server
            logging.exception("job %s", self.kind)
            self.error, self.state = f"rulelang failed ({type(error).__name__}: {error})", "failed"

    def answer(self) -> dict[str, Any]:
        return {"state": self.state, "done": self.done, "total": self.total, "result": self.result,
                "error": self.error, "kind": self.kind}


def games_of(body: dict[str, Any]) -> int:
    games = body.get("games", 1000)
    if type(games) is not int or not 1 <= games <= MAX_GAMES:
        raise ApiError(400, f"games is a whole number from 1 to {MAX_GAMES:,}", "use the CLI for bigger batches")
    return games


def command_args(path: str, mods: list[str], body: dict[str, Any], agents: list[str]) -> argparse.Namespace:
    """The arguments the CLI's command would have: what the lab's own checks and summaries read."""
    seed = body.get("seed", 0)
    if type(seed) is not int:
        raise ApiError(400, "the seed is a whole number", "")
    players = body.get("players")
    if type(players) is not int:
        raise ApiError(400, "players is a whole number", "")
    return argparse.Namespace(path=path, mods=list(mods), params={}, agents=",".join(agents) or "random",
                              seed=seed, games=games_of(body), players=players, workers=1, plot=None, csv=None,
                              quality=False, ray=None, compare=None, json=True)


def simulate_job(args: argparse.Namespace) -> Job:
    """A `simulate` of one player count: checked now (game, players, agents), played later."""
    from rulelang.lab.command import batch_summary, game_and_agents, provenance
    from rulelang.lab.simulate import Batch, run_batch

    game, agents = game_and_agents(args.path, args.players, args.agents, args.mods, args.params)
    origin = provenance(args)
    batch = Batch(args.path, args.players, args.games, args.seed, agents, tuple(args.mods))

    def work(progress: Callable[[int], None]) -> dict[str, Any]:
        records = run_batch(game, batch, 1, progress)
        return _plain(batch_summary(game, batch, records, origin))
    return Job("simulate", args.games, work)


def sweep_job(args: argparse.Namespace) -> Job:
    """A `sweep`: every value and the target checked now, the settings played later."""
    from rulelang.lab.sweep import run_sweep
    from rulelang.lab.sweep_command import plan_sweep
    from rulelang.lab.sweep_report import sweep_json

    plan = plan_sweep(args)
    if plan.total > MAX_SETTINGS or plan.total * args.games > MAX_GAMES:
        raise ApiError(400, f"the sweep plays {plan.total} settings of {args.games:,} games; the page plays at most "
                            f"{MAX_GAMES:,} games in all ({MAX_SETTINGS} settings)",
                       "fewer games or values, or rulelang sweep for a bigger grid")

    def work(progress: Callable[[int], None]) -> dict[str, Any]:
        results = run_sweep(plan.doc, args.path, plan.varies, plan.batch, plan.metric, plan.target, 1, progress)
        return json.loads(sweep_json(plan.varies, results, plan.metric, plan.target))
    return Job("sweep", plan.total * args.games, work)


def _plain(summary: dict[str, Any]) -> Any:
    """The summary exactly as `--json` prints it (its keys as strings, its values as JSON has them)."""
    from rulelang.lab.report import json_line

    return json.loads(json_line(summary))


class Jobs:
    """The server's jobs: one runs at a time."""

    def __init__(self) -> None:
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()

    def start(self, make: Callable[[], Job]) -> str:
        with self.lock:
            if any(job.state == "running" for job in self.jobs.values()):
                raise ApiError(409, "a job is already running", "wait for it or cancel it")
            try:
                job = make()
            except UsageError as error:
                raise ApiError(400, str(error), "") from None
            except RulelangError as error:
                raise ApiError(400, error.format(), error.hint or "") from None
            jid = secrets.token_hex(8)
            self.jobs = {key: old for key, old in self.jobs.items() if key in list(self.jobs)[-8:]}
            self.jobs[jid] = job
            job.thread = threading.Thread(target=job.run, name=f"rulelang-{job.kind}", daemon=True)
            job.thread.start()
        return jid

    def get(self, jid: str) -> Job:
        job = self.jobs.get(jid)
        if job is None:
            raise ApiError(404, "no such job", "")
        return job

    def cancel(self, jid: str) -> Job:
        job = self.get(jid)
        job.cancel.set()
        return job

    def stop_all(self) -> None:
        for job in list(self.jobs.values()):
            job.cancel.set()
