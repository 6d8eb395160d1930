"""Deliberate bugs, one at a time: the places of a module where ``ast`` can plant one, and the module with it.

A mutant is one small change of the parsed module: an operator swapped (``+``/``-``, ``<``/``<=``, ``==``/``!=``,
``in``/``not in``, ``and``/``or``), one operand of an ``and``/``or`` dropped, a constant changed (a number plus one, ``True``/``False``, a string marked), a
condition negated or its ``not`` dropped, or a statement dropped (an assignment, a call, a ``return``, a
``raise``: replaced by ``pass``), or a function made to return ``None``. The module is compiled from the changed tree, so its line numbers stay those of
the file, and nothing is ever written back to the file.

Left alone, as no test could tell them apart and they would only be counted as survivors: docstrings, what only
the type checker reads (annotations), log lines, the wording of a message inside ``_()``/``gettext()`` (its
translation is keyed by it; a reworded message is no bug) and the API schema's prose (``help_text=``,
``description=``, ``summary=``, and the words given to ``error()`` and ``created_location()``).
"""

from __future__ import annotations

import ast
import random
from dataclasses import dataclass
from pathlib import Path

SWAPPED = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult, ast.LShift: ast.RShift, ast.RShift: ast.LShift,
    ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr, ast.BitXor: ast.BitOr,
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.And: ast.Or, ast.Or: ast.And,
}
SYMBOL = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
    ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^", ast.Lt: "<",
    ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in",
    ast.Is: "is", ast.IsNot: "is not", ast.And: "and", ast.Or: "or",
}
DROPPED = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Raise, ast.Delete, ast.Continue,
           ast.Break)
# Calls whose string arguments are the words of a message (keys of its translations), and the loggers.
WORDING = {"_", "gettext", "gettext_lazy", "ngettext", "pgettext", "pgettext_lazy", "ngettext_lazy", "N_", "noop"}
LOGGERS = {"logger", "logging", "log"}
DOCUMENTATION = {"help_text", "description", "summary"}
# The project's schema helpers whose string arguments are that prose too (``turnbased/kit/api/schema.py``).
DOCUMENTING_CALLS = {"error", "created_location"}
MARK = "mutant"  # put around a string constant, so the changed one is never equal to the real one


@dataclass(frozen=True)
class Mutant:
    """One planted bug: the module's file, which change of which node, and how a reader finds it again."""

    path: str  # the module's file, as given (relative to the repository)
    node: int  # the changed node's place in ``ast.walk`` order of the parsed module
    change: str  # what is done to it (a key of ``_CHANGES``)
    line: int
    text: str  # the line's code, stripped: with ``path`` and ``description``, the mutant's key
    description: str
    occurrence: int = 0  # the same change on the same line text elsewhere in the module: 1, 2, ...

    @property
    def key(self) -> str:
        """Return the mutant's name that line numbers do not change (the file of equivalent mutants uses it)."""
        suffix = f" #{self.occurrence + 1}" if self.occurrence else ""
        return f"{self.text} :: {self.description}{suffix}"


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _untouchable(tree: ast.Module) -> set[int]:
    """Return the ids of nodes no mutant may change: docstrings, annotations, log lines and message wordings."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        for inner in ast.walk(node) if node is not None else ():
            skipped.add(id(inner))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(
                    first.value.value, str):
                skip(first)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            skip(node.returns)
            for argument in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg,
                             node.args.kwarg]:
                if argument is not None:
                    skip(argument.annotation)
        elif isinstance(node, ast.AnnAssign):
            skip(node.annotation)
        elif isinstance(node, ast.Call):
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            if isinstance(owner, ast.Name) and owner.id in LOGGERS:
                skip(node)
            elif _called_name(node) in WORDING or _called_name(node) in DOCUMENTING_CALLS:
                for argument in node.args:
                    if isinstance(argument, ast.Constant):
                        skipped.add(id(argument))
            for keyword in node.keywords:  # the API schema's prose: read by people, never by a client's code
                if keyword.arg in DOCUMENTATION:
                    skip(keyword.value)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            owner = node.value.func.value if isinstance(node.value.func, ast.Attribute) else None
            if isinstance(owner, ast.Name) and owner.id in LOGGERS:
                skip(node)
        elif isinstance(node, ast.JoinedStr):
            skip(node)  # an f-string's literal parts are wording; its expressions are reached through it below
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    for inner in ast.walk(value.value):
                        skipped.discard(id(inner))
        elif isinstance(node, ast.If) and _is_guard_of_imports(node):
            skip(node)
    return skipped


def _is_guard_of_imports(node: ast.If) -> bool:
    """Tell ``if TYPE_CHECKING:`` and ``if __name__ == "__main__":`` apart: no test runs what they guard."""
    text = ast.unparse(node.test)
    return text in ("TYPE_CHECKING", "__name__ == '__main__'")


def _changes_of(node: ast.AST) -> list[tuple[str, str]]:
    """Return the (change, description) pairs that apply to ``node``."""
    found: list[tuple[str, str]] = []
    if isinstance(node, (ast.BinOp, ast.AugAssign, ast.BoolOp)) and type(node.op) in SWAPPED:
        found.append(("swap", f"`{SYMBOL[type(node.op)]}` -> `{SYMBOL[SWAPPED[type(node.op)]]}`"))
    elif isinstance(node, ast.Compare):
        for place, op in enumerate(node.ops):
            found.append((f"compare:{place}", f"`{SYMBOL[type(op)]}` -> `{SYMBOL[SWAPPED[type(op)]]}`"))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        found.append(("unary", "`not` dropped" if isinstance(node.op, ast.Not) else "`-` dropped"))
    elif isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool):
            found.append(("constant", f"`{value}` -> `{not value}`"))
        elif isinstance(value, (int, float)):
            found.append(("constant", f"`{value!r}` -> `{value + 1!r}`"))
        elif isinstance(value, str):
            found.append(("constant", f"{value[:30]!r} marked"))
    if isinstance(node, ast.BoolOp):
        for place in range(len(node.values)):
            found.append((f"operand:{place}", f"operand {place + 1} of `{SYMBOL[type(node.op)]}` dropped"))
    if isinstance(node, ast.Return) and node.value is not None and not (
            isinstance(node.value, ast.Constant) and node.value.value is None):
        found.append(("none", "returns `None`"))
    if isinstance(node, (ast.If, ast.While, ast.IfExp)):
        found.append(("negate", "condition negated"))
    if isinstance(node, DROPPED):
        found.append(("drop", f"`{type(node).__name__.lower()}` dropped"))
    return found


def _apply(node: ast.AST, change: str, parents: dict[int, tuple[ast.AST, str, int | None]]) -> None:
    """Change ``node`` in place (within its parent, when it is replaced)."""
    if change == "swap":
        node.op = SWAPPED[type(node.op)]()
    elif change.startswith("compare:"):
        place = int(change.split(":")[1])
        node.ops[place] = SWAPPED[type(node.ops[place])]()
    elif change == "unary":
        _replace(node, node.operand, parents)
    elif change == "constant":
        value = node.value
        node.value = (not value if isinstance(value, bool) else value + 1 if isinstance(value, (int, float))
                      else f"{MARK}{value}{MARK}")
    elif change.startswith("operand:"):
        del node.values[int(change.split(":")[1])]
        if len(node.values) == 1:
            _replace(node, node.values[0], parents)
    elif change == "none":
        node.value = ast.Constant(value=None)
    elif change == "negate":
        node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
    elif change == "drop":
        _replace(node, ast.Pass(), parents)
    else:
        raise ValueError(f"unknown change {change!r}")


def _replace(node: ast.AST, new: ast.AST, parents: dict[int, tuple[ast.AST, str, int | None]]) -> None:
    parent, field, index = parents[id(node)]
    ast.copy_location(new, node)
    if index is None:
        setattr(parent, field, new)
    else:
        getattr(parent, field)[index] = new


def _parents(tree: ast.AST) -> dict[int, tuple[ast.AST, str, int | None]]:
    found = {}
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for index, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        found[id(item)] = (parent, field, index)
            elif isinstance(value, ast.AST):
                found[id(value)] = (parent, field, None)
    return found


def mutants_of(path: str, root: Path = Path("."), within: tuple[str, ...] = ()) -> list[Mutant]:
    """Return every mutant of the module at ``path``, in the order of its nodes; with ``within``, only those
    inside the top-level functions and classes of these names."""
    source = (root / path).read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    skipped = _untouchable(tree)
    inside = None
    if within:
        inside = {id(inner) for node in tree.body if getattr(node, "name", None) in within for inner in ast.walk(node)}
    found, seen = [], {}
    for number, node in enumerate(ast.walk(tree)):
        if id(node) in skipped or not hasattr(node, "lineno") or (inside is not None and id(node) not in inside):
            continue
        for change, description in _changes_of(node):
            text = lines[node.lineno - 1].strip()
            occurrence = seen.get((text, description), 0)
            seen[(text, description)] = occurrence + 1
            found.append(Mutant(path, number, change, node.lineno, text, description, occurrence))
    return found


def sample(mutants: list[Mutant], count: int, seed: int | str) -> list[Mutant]:
    """Return ``count`` of the mutants (all when fewer), drawn by ``seed``, in the module's line order."""
    chosen = mutants if len(mutants) <= count else random.Random(f"{seed}").sample(mutants, count)
    return sorted(chosen, key=lambda mutant: (mutant.line, mutant.node, mutant.change))


def mutated_code(mutant: Mutant, root: Path = Path(".")):
    """Return the module's code object with the mutant planted, compiled under the file's own name."""
    filename = str((root / mutant.path).resolve())
    tree = ast.parse((root / mutant.path).read_text(encoding="utf-8"), filename=filename)
    node = next(node for number, node in enumerate(ast.walk(tree)) if number == mutant.node)
    _apply(node, mutant.change, _parents(tree))
    return compile(ast.fix_missing_locations(tree), filename, "exec", dont_inherit=True)
