"""The engine's old single home, kept as a façade: every name it used to define, from its new module.

The engine is in parts, each with one job: ``game`` (the compiled game and its
declarations), ``state`` (the state and its JSON), ``protocol`` (asking and
taking decisions), ``interpreter`` (the run loop and its frames), ``cards``
(moves, triggers, slots, playing and answering cards), ``turns`` (starting a
game, ending a turn, ending the game), ``views`` (what a player may see, names)
and ``fixtures`` (positions set up by scenarios and tests). Code that imports
from here keeps working; new code imports from those modules.
"""
from __future__ import annotations

from .cards import (
                    answer_card,
                    answerers,
                    discard_card,
                    discard_options,
                    discard_zone,
                    draw_cards,
                    end_roll_durations,
                    kinds_in,
                    legal_plays,
                    move_card,
                    reaction_options,
                    refill,
                    shuffle_zone,
                    zone_of_hand,
)
from .game import CardType, EndCondition, Fn, Game, Layout, Op, Phase, Proc, ZoneDecl, assign_roles
from .interpreter import FAILURES, Frame, failure, located, run
from .protocol import Decision, DecisionProtocol, Option
from .state import MASK64, State, set_counter, set_player_var
from .turns import check_end, end_turn, start_game
from .views import NAMES, holder_label, make_view, player_name

__all__ = ["FAILURES", "MASK64", "NAMES", "CardType", "Decision", "DecisionProtocol", "EndCondition", "Fn", "Frame",
           "Game", "Layout", "Op", "Option", "Phase", "Proc", "State", "ZoneDecl", "answer_card", "answerers",
           "assign_roles", "check_end", "discard_card", "discard_options", "discard_zone", "draw_cards",
           "end_roll_durations", "end_turn", "failure", "holder_label", "kinds_in", "legal_plays", "located",
           "make_view", "move_card", "player_name", "reaction_options", "refill", "run", "set_counter",
           "set_player_var", "shuffle_zone", "start_game", "zone_of_hand"]
