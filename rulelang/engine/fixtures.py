"""Positions set up by hand: what scenarios, tests and tools do to a state that the rules never do.

They script the dice (``script_dice``), stop before a step (``halt_before``,
then ``resume``), jump to a step (``go_to_step``) and put cards where they want
them (``arrange``, ``put_on_top``), all without events. The state keeps only
the two fields the rules read (``dice_script``, ``halt``); neither is saved.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.interpreter import run
from rulelang.errors import RulelangError, did_you_mean

if TYPE_CHECKING:
    from rulelang.engine.board import Board


def script_dice(st: Board, faces: list[int]) -> None:
    """The next dice rolled show these faces, in order; then the RNG rolls again."""
    st.dice_script = list(faces)


def go_to_step(st: Board, step: str, turn: int | None = None, active: int | None = None) -> None:
    """Abandon whatever the game was doing and continue from the start of a step."""
    game = st.game
    _check_step(st, step)
    del st.stack[1:]
    loop = st.stack[0]              # the turn loop
    loop.pc = game.step_pcs[step]
    st.phase = game.step_phase[step]
    loop.locals = {}
    st.pending = st.answer = None
    st._decision = None
    if turn is not None:
        st.turn = turn
    if active is not None:
        st.active = active
    run(st)


def resume(st: Board) -> None:
    """Go on after a halt (see ``halt_before``)."""
    if st.pending is None and not st.over:
        run(st)


def halted_before_step(st: Board) -> bool:
    """Whether the game stopped where a step is about to start (a halt, ``new_state(before_first_turn=True)``):
    nothing waits, only the turn loop is on the stack, and its next instruction starts a step."""
    return (st.pending is None and st.answer is None and not st.over and len(st.stack) == 1
            and st.stack[0].pc in st.game.step_pcs.values())


def halt_before(st: Board, step: str, turn: int) -> None:
    """Stop (with no decision waiting) when ``step`` of ``turn`` is about to start."""
    _check_step(st, step)
    st.halt = [turn, step]


def _check_step(st: Board, step: str) -> None:
    steps = st.game.step_pcs
    if step not in steps:
        hint = did_you_mean(step, steps) or "the steps are: " + ", ".join(f"'{s}'" for s in steps)
        raise RulelangError(f"unknown step '{step}'", hint=hint)


def arrange(st: Board, contents: dict[str, list[str]], others: str | None = None) -> None:
    """Put exactly these cards (by id, bottom to top) in these zones, without events.

    Cards are taken first from their starting zones; cards displaced from an
    arranged zone go back to their starting zone, or, when that is arranged
    too, to the bottom of the zone ``others`` (a scenario's "every other card
    goes there", beneath its arranged cards if it is arranged itself).
    Without ``others`` that is an error whose ``zone`` names the starting zone.
    """
    game = st.game
    targets = {st.zone_id_of(label): ids for label, ids in contents.items()}
    spare = st.zone_id_of(others) if others is not None else None
    leftover: list[int] = []
    claimed: set[int] = set()
    placement: dict[int, list[int]] = {}
    for zid, ids in targets.items():
        placement[zid] = []
        for cid in ids:
            card = _free_card(st, cid, claimed, targets)
            claimed.add(card)
            placement[zid].append(card)
    for zid in targets:
        for card in list(st.zones[zid]):
            if card not in claimed:
                home = game.zone_id(game.zones[game.card_type[card].zone], 0, st.n)
                if home in targets:
                    if spare is None:
                        raise _no_room(game.card_type[card].id, st.lay.zone_labels[home])
                    st.zones[zid].remove(card)
                    leftover.append(card)
                    continue
                st.zones[zid].remove(card)
                st.zones[home].append(card)
                st.loc[card] = home
    for zid, cards in placement.items():
        for card in cards:
            st.zones[st.loc[card]].remove(card)
        st.zones[zid].extend(cards)
        for card in cards:
            st.loc[card] = zid
    if leftover and spare is not None:            # a leftover card was only set aside when there is a spare
        st.zones[spare][0:0] = leftover
        for card in leftover:
            st.loc[card] = spare


def put_on_top(st: Board, label: str, ids: list[str]) -> None:
    """Put these cards (by id) on top of a zone, the last one on top, without events.

    Each is taken from the zone itself if it holds one, else from wherever
    a copy lies outside the players' zones.
    """
    game = st.game
    zid = st.zone_id_of(label)
    placed: set[int] = set()
    for cid in ids:
        copies = [c for c, t in enumerate(game.card_type) if t.id == cid and c not in placed]
        if not copies:
            known = {t.id for t in game.cards}
            raise RulelangError(f"unknown card '{cid}'" if cid not in known else f"not that many '{cid}' cards",
                                hint=did_you_mean(cid, known))
        here = [c for c in copies if st.loc[c] == zid]
        loose = [c for c in copies if st.lay.zones[st.loc[c]][1] is None]
        pick = (here or loose or copies)[0]
        placed.add(pick)
        st.zones[st.loc[pick]].remove(pick)
        st.zones[zid].append(pick)
        st.loc[pick] = zid


def _free_card(st: Board, cid: str, claimed: set[int], targets: dict) -> int:
    game = st.game
    candidates = [c for c, t in enumerate(game.card_type) if t.id == cid and c not in claimed]
    if not candidates:
        known = {t.id for t in game.card_type}
        if cid not in known:
            raise RulelangError(f"unknown card '{cid}'", hint=did_you_mean(cid, known))
        raise RulelangError(f"there are not that many '{cid}' cards")
    home = lambda c: game.zone_id(game.zones[game.card_type[c].zone], 0, st.n)
    candidates.sort(key=lambda c: (st.loc[c] != home(c), st.loc[c] in targets, c))
    return candidates[0]


def _no_room(card: str, zone: str) -> RulelangError:
    """A card displaced by an arrangement whose starting zone is arranged too; ``zone`` says which."""
    error = RulelangError(f"no room for {card}: its starting zone {zone} is arranged too",
                          hint=f"place every {card} card, or name a zone for the cards left over: "
                               "setup: {others: ZONE}")
    error.zone = zone             # type: ignore[attr-defined]
    return error

