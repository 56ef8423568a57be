"""What the server keeps for the page by a random id (games in play, open logs): a bounded table.

Ids are random (``secrets``), so a page cannot guess another's; at most ``most`` are kept, the oldest
dropped first, so a page that opens many cannot fill the memory.
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Generic, TypeVar

from . import ApiError

T = TypeVar("T")


class Kept(Generic[T]):
    """Items by id, at most ``most``; asking for an id not kept is a 404 with ``hint``."""

    def __init__(self, most: int, what: str, hint: str) -> None:
        self.most, self.what, self.hint = most, what, hint
        self.items: OrderedDict[str, T] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, item: T) -> str:
        key = secrets.token_hex(8)
        with self.lock:
            self.items[key] = item
            while len(self.items) > self.most:
                self.items.popitem(last=False)
        return key

    def get(self, key: str) -> T:
        with self.lock:
            item = self.items.get(key)
        if item is None:
            raise ApiError(404, f"no such {self.what}", self.hint)
        return item
