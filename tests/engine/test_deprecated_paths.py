"""The module paths the README named before the packages by stage still import, with a DeprecationWarning."""
# rewrite_imports: leave
from __future__ import annotations

import importlib
import sys
import warnings

import pytest

import rulelang


@pytest.mark.parametrize("old, new, name", [
    ("rulelang.sim", "rulelang.logs.replay", "replay"),
    ("rulelang.sim", "rulelang.logs.replay", "verify_log"),
    ("rulelang.sim", "rulelang.testing.smoke", "smoke_test"),
    ("rulelang.saves", "rulelang.logs.saves", "read_state_file"),
    ("rulelang.chance", "rulelang.engine.chance", "Position"),
])
def test_an_old_module_path_is_its_new_module(old: str, new: str, name: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=new):
        module = importlib.import_module(old)
    assert getattr(module, name) is getattr(importlib.import_module(new), name)


def test_the_old_engine_names_come_from_their_homes() -> None:
    from rulelang.engine.game import Game
    from rulelang.engine.turns import start_game
    with pytest.warns(DeprecationWarning, match="rulelang.engine.game.Game"):
        assert rulelang.engine.Game is Game
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from rulelang.engine import start_game as old
    assert old is start_game


def test_an_unknown_engine_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        rulelang.engine.no_such_name  # noqa: B018
