"""The checker's types (rulelang/lang/types.py): spelled as they always were, compared by structure, never with a string."""
from __future__ import annotations

import pickle

import pytest

from rulelang.check.types import describe, die_of, item_of
from rulelang.lang.types import (
    ANY,
    ANY_DIE,
    BOOL,
    CARD,
    CLASS,
    COUNTER,
    GAME,
    INT,
    LOCATION,
    NONE,
    PLAYER,
    TEXT,
    UNKNOWN,
    ZONE,
    Base,
    Type,
    declared_type,
    list_of,
    roll_of,
    table_of,
    tuple_items,
    tuple_of,
)

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


@pytest.mark.parametrize("kind, words", [
    (INT, "a number"), (BOOL, "a condition (true/false)"), (TEXT, "a label"), (PLAYER, "a player"),
    (LOCATION, "a location"), (COUNTER, "a counter name"), (CARD, "a card"), (ZONE, "a zone"), (GAME, "the game"),
    (NONE, "none"), (CLASS, "a card kind"), (UNKNOWN, "a value of no known type"),
    (list_of(CARD), "a list of cards"), (list_of(PLAYER), "a list of players"), (list_of(UNKNOWN), "a list"),
    (list_of(tuple_of([INT, PLAYER])), "a list of tuples (number, player)"),
    (tuple_of([INT, PLAYER]), "a tuple (number, player)"),
    (tuple_of([BOOL, CLASS, COUNTER]), "a tuple (condition (true/false), card kind, counter name)"),
    (roll_of("d6"), "a dice roll"), (roll_of(), "a dice roll"), (table_of("prices"), "a table"),
])
def test_describe_says_a_type_in_the_words_of_error_messages(kind: Type, words: str) -> None:
    assert describe(kind) == words


def test_item_of_is_what_looping_over_a_value_gives() -> None:
    assert item_of(list_of(PLAYER)) == PLAYER
    assert item_of(list_of(tuple_of([INT, CARD]))) == tuple_of([INT, CARD])
    assert item_of(list_of(UNKNOWN)) == UNKNOWN
    assert item_of(ZONE) == CARD                # a zone holds cards
    assert item_of(roll_of("d6")) == INT        # a roll holds faces
    for kind in (INT, CARD, UNKNOWN, table_of("t"), tuple_of([INT, INT])):
        assert item_of(kind) is None


def test_die_of_and_tuple_items_take_compound_types_apart() -> None:
    assert die_of(roll_of("d6")) == "d6"
    assert die_of(roll_of()) == ANY_DIE
    assert die_of(INT) is None and die_of(table_of("d6")) is None and die_of(None) is None
    assert tuple_items(tuple_of([INT, PLAYER, BOOL])) == [INT, PLAYER, BOOL]
    assert tuple_items(list_of(INT)) is None and tuple_items(INT) is None and tuple_items(None) is None


@pytest.mark.parametrize("word, kind", [
    ("int", INT), ("bool", BOOL), ("player", PLAYER), ("location", LOCATION), ("card", CARD), ("counter", COUNTER),
    ("(int, player)", tuple_of([INT, PLAYER])), ("(bool,card,int)", tuple_of([BOOL, CARD, INT])),
    ("text", None), ("zone", None), ("(int)", None), ("(int, zone)", None), ("list:int", None), (3, None), (None, None),
])
def test_a_declared_word_is_read_into_its_type_once(word, kind) -> None:
    assert declared_type(word) == kind
