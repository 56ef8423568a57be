"""Another user who can rename things in the cache folder's parent, and wins the race against a check.

``SwapAfterCheck`` stands in for ``os`` as rulelang/spec/cache.py sees it. The first time any stat (of a path
or of an open handle) shows the genuine cache folder, the folder is swapped at once: renamed aside, and
the attacker's folder renamed into its place. Whatever the cache checks the folder with, the swap comes
right after the check, as a lucky attacker's would; a cache that then reads by name reads the attacker's.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any


class SwapAfterCheck:
    def __init__(self, genuine: Path, planted: Path) -> None:
        info = os.lstat(genuine)
        self.genuine = genuine
        self.planted = planted
        self.identity = (info.st_dev, info.st_ino)
        self.swapped = False

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    def fstat(self, handle: int) -> os.stat_result:
        return self._after(os.fstat(handle))

    def lstat(self, path: Any, **options: Any) -> os.stat_result:
        return self._after(os.lstat(path, **options))

    def stat(self, path: Any, **options: Any) -> os.stat_result:
        return self._after(os.stat(path, **options))

    def _after(self, info: os.stat_result) -> os.stat_result:
        if not self.swapped and stat.S_ISDIR(info.st_mode) and (info.st_dev, info.st_ino) == self.identity:
            self.swapped = True
            os.rename(self.genuine, self.genuine.with_name(self.genuine.name + "-aside"))
            os.rename(self.planted, self.genuine)
        return info


def private_folder(path: Path) -> Path:
    """A folder of this user's that nobody else may enter, as a genuine cache folder (or a planted one) is."""
    path.mkdir(mode=0o700, parents=True)
    path.chmod(0o700)
    return path
