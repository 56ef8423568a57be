"""`P chooses one:` then its branches: P picks one branch (a labelled one whose `if` holds, or an item of a
`for x in LIST where C:` branch), and that branch's statements run. `P publicly chooses one:` is said aloud.

The branches are parts of this statement (``nodes.Branch``, ``nodes.EachBranch``), built by the parser; the
decision's instructions and its site are the compiler's shared decision machinery
(``compiler.choices.branch_decision``), and a step played in place writes them out
(``compiler.direct_decisions.choose_one``), so the decision keeps its name, options and saved form.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulelang.lang import nodes as n
from rulelang.lang.types import BOOL
from rulelang.model.decisions import branch_id

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Decisions, DecisionsInPlace, Instructions, Lines, Wording


@statement
class ChooseOne(n.Stmt):
    player: n.Expr
    public: bool                    # `P publicly chooses one:`
    name: str | None                # `as NAME`: the decision's own name
    branches: list[n.Branch | n.EachBranch]

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.decider(self.player, scope)
        seen: set[str] = set()
        ids: set[str] = set()
        for branch in self.branches:
            if isinstance(branch, n.EachBranch):
                ck.each_branch(branch, scope)
                continue
            if branch.label in seen:
                ck.error(f"two branches are labelled \"{branch.label}\"", branch.span)
            elif branch_id(branch) in ids:
                ck.error(f"two branches have the option id '{branch_id(branch)}'", branch.span,
                         "give one an id of its own: \"label\" as some_id:")
            seen.add(branch.label)
            ids.add(branch_id(branch))
            if branch.cond is not None:
                ck.expect(branch.cond, scope, BOOL, "the branch condition")
            ck.block(branch.body, scope)

    def instruction(self, sc: Decisions, b: Instructions) -> None:
        sc.branch_decision(self, b)

    def in_place(self, dc: DecisionsInPlace, out: Lines) -> None:
        dc.choose_one(self, out)

    def words(self, w: Wording) -> Any:
        """Its sentence, each branch's words on a line under it."""
        return w.with_parts(w.acts(self.player, 'choose', 'chooses') + " one:", self.branches)
