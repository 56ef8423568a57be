"""The checker's types (rulelang/types.py): spelled as they always were, compared by structure, never with a string."""
from __future__ import annotations

import pickle

import pytest

from rulelang.types import (ANY, ANY_DIE, BOOL, CARD, CLASS, COUNTER, GAME, INT, LOCATION, NONE, PLAYER, TEXT,
                            UNKNOWN, ZONE, Base, Type, list_of, roll_of, table_of, tuple_of)

PLAIN = [INT, BOOL, TEXT, PLAYER, LOCATION, COUNTER, CARD, ZONE, GAME, NONE, CLASS]


@pytest.mark.parametrize("kind, spelling", [
    *((kind, kind.base.value) for kind in PLAIN),
    (UNKNOWN, "?"),
    (list_of(CARD), "list:card"),
    (list_of(UNKNOWN), "list:?"),
    (list_of(ANY), "list:any"),
    (roll_of("d6"), "roll:d6"),
    (roll_of(), "roll:?"),
    (table_of("prices"), "table:prices"),
    (tuple_of([INT, PLAYER]), "(int,player)"),
    (list_of(tuple_of([INT, INT, CARD])), "list:(int,int,card)"),
])
def test_a_type_is_spelled_as_the_string_it_replaced(kind: Type, spelling: str) -> None:
    assert str(kind) == spelling
    assert f"{kind}" == spelling
    assert repr(kind) == f"Type({spelling!r})"


def test_the_plain_words_are_exactly_the_old_ones() -> None:
    assert [str(kind) for kind in PLAIN] == ["int", "bool", "text", "player", "location", "counter", "card", "zone",
                                             "game", "none", "class"]
    assert ANY_DIE == "?" and roll_of().name == ANY_DIE


def test_types_built_apart_are_equal_and_hash_alike() -> None:
    pairs = [(Type(Base.INT), INT), (list_of(PLAYER), list_of(Type(Base.PLAYER))), (roll_of("d6"), roll_of("d6")),
             (table_of("t"), table_of("t")), (tuple_of([INT, BOOL]), tuple_of((INT, BOOL))),
             (list_of(tuple_of([INT, CARD])), list_of(tuple_of([INT, CARD])))]
    for one, other in pairs:
        assert one == other and not one != other
        assert hash(one) == hash(other)
    assert len({one for one, _ in pairs} | {other for _, other in pairs}) == len(pairs)
    assert {list_of(CARD): "cards"}[list_of(CARD)] == "cards"


def test_types_that_differ_anywhere_are_not_equal() -> None:
    different = [INT, BOOL, UNKNOWN, ANY, list_of(INT), list_of(BOOL), list_of(UNKNOWN), roll_of("d6"), roll_of("d8"),
                 roll_of(), table_of("a"), table_of("b"), tuple_of([INT, INT]), tuple_of([INT, BOOL]),
                 tuple_of([INT, INT, INT]), list_of(tuple_of([INT, INT]))]
    for i, one in enumerate(different):
        for j, other in enumerate(different):
            assert (one == other) is (i == j), (one, other)
    assert INT != 3 and INT is not None and INT != Base.INT


@pytest.mark.parametrize("kind, word", [(INT, "int"), (PLAYER, "player"), (UNKNOWN, "?"), (list_of(CARD), "list:card"),
                                        (tuple_of([INT, INT]), "(int,int)"), (roll_of("d6"), "roll:d6")])
def test_comparing_a_type_with_a_string_is_an_error(kind: Type, word: str) -> None:
    with pytest.raises(TypeError):
        _ = kind == word
    with pytest.raises(TypeError):
        _ = word == kind
    with pytest.raises(TypeError):
        _ = kind != word
    with pytest.raises(TypeError):
        _ = kind in (word, "bool")
    with pytest.raises(TypeError):          # a table keyed by words, looked up with a type: not a quiet miss
        _ = {word: 1}.get(kind)
    with pytest.raises(TypeError):
        _ = word in {kind}


def test_a_type_is_immutable_and_survives_a_pickle() -> None:
    kind = list_of(tuple_of([INT, PLAYER]))
    with pytest.raises(AttributeError):
        kind.base = Base.BOOL       # type: ignore[misc]
    copy = pickle.loads(pickle.dumps(kind))
    assert copy == kind and hash(copy) == hash(kind) and str(copy) == "list:(int,player)"
