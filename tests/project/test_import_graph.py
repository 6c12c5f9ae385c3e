"""The import graph of core/, storage/, bot/ and cogs/, read from the source (every import,
those under `if TYPE_CHECKING:` and inside functions included): the layers of README.md (For
developers), the layers of bot/'s folders, no two folders of bot/ importing each other, no
cycle in storage/, and nothing of ours reaching into
aiosqlite's or discord.py's private attributes (outside the offline Discord,
bot/offline/discord_stub.py, which stands in for Discord's gateway and must build discord.py's
state by hand).

Each rule is a function over the graph or a module's syntax tree; the last tests feed each one
a small violation of its own, so a rule that silently stopped seeing anything would fail."""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import aiosqlite
import discord

from tests.support.paths import ROOT

PACKAGES = ("core", "storage", "bot", "cogs")
LIBRARIES = ("aiosqlite", "discord")
"""The libraries whose private attributes nothing of ours may read or override."""
STORAGE_LAYERS: tuple[tuple[str, ...], ...] = (
    ("storage.engine",),
    ("storage.shared",),
    ("storage.league", "storage.tour"),
    ("storage.guild",),
)
"""The folders of storage/, lowest first: league and tour import only the engine and shared,
never each other, and only storage/guild.py builds units of work from all of them."""
STUB = "bot.offline.discord_stub"
"""The one module allowed to: it plays Discord's gateway to the real discord.py offline."""

BOT_LAYERS: tuple[tuple[str, ...], ...] = (
    ("bot.formats",),
    ("bot.rendering",),
    ("bot.kernel",),
    ("bot.runtime",),
    ("bot.chesscom", "bot.lichess"),
    ("bot.sites",),
    ("bot.league", "bot.tour", "bot.notifications"),
    ("bot.app", "bot.web"),
    ("bot.offline",),
    ("bot.cli",),
)
"""The folders of bot/ from the bottom up. A folder imports only folders of lower layers,
never one of its own layer, so no two folders import each other. formats is the gate in and
rendering the renderer out; kernel is what every use case imports (errors, the actor,
inputs, configuration); runtime runs the outbox, the scheduler and HTTP; chesscom and
lichess are the sites' clients and sites polls them; league and tour are the use cases, and
notifications a member's choices of direct messages; app is the Discord wiring (the bot, its
tree, checks, autocomplete, UI) and web the public site over the same use cases; offline and
the CLI start and drive them."""
RENDERING_LAYERS: tuple[tuple[str, ...], ...] = (
    ("bot.rendering.common",),
    ("bot.rendering.league", "bot.rendering.tour"),
)
"""The renderers: what both competitions share, then each competition's own."""


@dataclass(frozen=True)
class Edge:
    """`source` imports `target` (a module of ours); `typing_only` under TYPE_CHECKING."""

    source: str
    target: str
    typing_only: bool


def module_name(path: Path, root: Path) -> str:
    """`bot/app/tree.py` → `bot.app.tree` (a package's `__init__.py` → the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources(root: Path, packages: Iterable[str] = PACKAGES) -> dict[str, str]:
    """Every module of `packages` under `root`: name → source text."""
    return {
        module_name(path, root): path.read_text(encoding="utf-8")
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
    }


@cache
def _parsed(text: str) -> ast.Module:
    """A module's syntax tree (parsed once for every rule; never changed by them)."""
    return ast.parse(text)


@cache
def _nodes(text: str) -> tuple[ast.AST, ...]:
    """Every node of a module's tree (walked once for every rule)."""
    return tuple(ast.walk(_parsed(text)))


def _is_type_checking(test: ast.expr) -> bool:
    """`TYPE_CHECKING` or `typing.TYPE_CHECKING`."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _typing_only_nodes(text: str) -> set[int]:
    """The ids of the nodes inside `if TYPE_CHECKING:` blocks."""
    inside: set[int] = set()
    for node in _nodes(text):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                inside |= {id(n) for n in ast.walk(child)}
    return inside


def _resolve(name: str, modules: set[str]) -> str | None:
    """The module of ours `name` refers to (a module, or a name inside one), if any."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def edges(modules: dict[str, str]) -> list[Edge]:
    """Every import between `modules` (relative imports resolved)."""
    names = set(modules)
    found: list[Edge] = []
    for source, text in modules.items():
        typing_only = _typing_only_nodes(text)
        package = source if _is_package(source, names) else source.rpartition(".")[0]
        for node in _nodes(text):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                targets = [f"{base}.{alias.name}" for alias in node.names] or [base]
            for target in targets:
                resolved = _resolve(target, names)
                if resolved is not None and resolved != source:
                    found.append(Edge(source, resolved, id(node) in typing_only))
    return list(dict.fromkeys(found))  # one edge per import, not per imported name


def _is_package(name: str, names: set[str]) -> bool:
    return any(other.startswith(name + ".") for other in names)


def within(name: str, *prefixes: str) -> bool:
    """Whether module `name` is one of `prefixes` or inside one of them."""
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def layer_violations(graph: list[Edge]) -> list[str]:
    """README.md, For developers: core ← storage ← bot ← cogs (imports only point down);
    nothing imports cogs (the bot loads them by module name)."""
    allowed = {
        "core": {"core"},
        "storage": {"storage", "core"},
        "bot": {"bot", "storage", "core"},
        "cogs": {"cogs", "bot", "core"},
    }
    return [
        f"{e.source} -> {e.target}"
        for e in graph
        if e.target.split(".")[0] not in allowed[e.source.split(".")[0]]
        or (within(e.target, "cogs") and not within(e.source, "cogs"))
    ]


def _layer_of(name: str, layers: tuple[tuple[str, ...], ...]) -> tuple[int, str] | None:
    """The layer index and folder of module `name` in `layers` (None: in none of them)."""
    for index, layer in enumerate(layers):
        for folder in layer:
            if within(name, folder):
                return index, folder
    return None


def bot_violations(
    graph: list[Edge], layers: tuple[tuple[str, ...], ...] = BOT_LAYERS
) -> list[str]:
    """The imports between folders of `layers` that do not point to a lower layer."""
    found = []
    for e in graph:
        source, target = _layer_of(e.source, layers), _layer_of(e.target, layers)
        if source is None or target is None or source[1] == target[1]:
            continue
        if target[0] >= source[0]:
            found.append(f"{source[1]} is not above {target[1]}: {e.source} -> {e.target}")
    return found


def folder_edges(graph: list[Edge], depth: int) -> list[Edge]:
    """The imports between folders `depth` names deep (`bot.tour` is 2, `bot.tour.games` 3):
    one edge per pair, typing-only when every import behind it is. A module stands for the
    folder it is in, and a folder never counts as importing one inside or around it."""
    packages = {e.source for e in graph} | {e.target for e in graph}

    def folder(name: str) -> str:
        is_package = any(other.startswith(name + ".") for other in packages)
        parts = name.split(".") if is_package else name.split(".")[:-1]
        return ".".join(parts[:depth])

    typing: dict[tuple[str, str], bool] = {}
    for e in graph:
        pair = folder(e.source), folder(e.target)
        if not within(pair[0], pair[1]) and not within(pair[1], pair[0]):
            typing[pair] = typing.get(pair, True) and e.typing_only
    return [Edge(source, target, only) for (source, target), only in typing.items()]


def folder_cycles(graph: list[Edge], prefix: str) -> list[list[str]]:
    """The folders under `prefix`, at every depth, that import each other (directly or round
    a loop), typing-only imports included."""
    deepest = max((len(e.source.split(".")) for e in graph if within(e.source, prefix)), default=0)
    start = len(prefix.split(".")) + 1
    return [
        component
        for depth in range(start, deepest)
        for component in cycles(folder_edges(graph, depth), prefix)
    ]


def cycles(graph: list[Edge], prefix: str) -> list[list[str]]:
    """The import cycles among the modules under `prefix` (typing-only imports count: a
    cycle that only type checking sees is still one), each as its strongly connected set."""
    nodes = sorted({n for e in graph for n in (e.source, e.target) if within(n, prefix)})
    after: dict[str, set[str]] = {n: set() for n in nodes}
    for e in graph:
        if e.source in after and e.target in after:
            after[e.source].add(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(after[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in nodes:
        if node not in index:
            visit(node)
    return found


@cache
def library_private_names() -> frozenset[str]:
    """Every `_name` (not dunder) that appears in aiosqlite's or discord.py's source: the
    private attributes, methods and helpers they might have (a superset, on purpose)."""
    found: set[str] = set()
    for library in (aiosqlite, discord):
        assert library.__file__ is not None
        for path in Path(library.__file__).parent.rglob("*.py"):
            found |= set(re.findall(r"\b(_[A-Za-z]\w*)", path.read_text(encoding="utf-8")))
    return frozenset(name for name in found if not name.endswith("__"))


def _imported(nodes: Iterable[ast.AST]) -> dict[str, str]:
    """Every name a module binds by importing: name → what it names (`commands` →
    `discord.ext.commands`, `Connection` → `aiosqlite.Connection`)."""
    bound = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.asname or alias.name.split(".")[0]
                bound[name] = alias.name if alias.asname else name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return bound


def _from_library(qualified: str) -> bool:
    return qualified.split(".")[0] in LIBRARIES


def _library_object(qualified: str) -> object | None:
    """The object `discord.ui.View` names, imported (None if it cannot be reached)."""
    parts = qualified.split(".")
    for end in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for part in parts[end:]:
            found = getattr(found, part, None)
        return found
    return None


def _dotted(node: ast.expr) -> str:
    """`discord.ui.DynamicItem[…]` → `discord.ui.DynamicItem` (the class, subscripts dropped)."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return ast.unparse(node)


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


def _own_names(nodes: Iterable[ast.AST]) -> set[str]:
    """The private names a module (or class) defines itself (functions, classes, attributes
    it assigns, class-level names): reading those is its own business."""
    names = set()
    for node in nodes:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute):
            names.add(node.target.attr)
    return {name for name in names if _is_private(name)}


def private_access(module: str, text: str) -> Iterator[str]:
    """What in one module reads or overrides a private attribute of aiosqlite or discord.py:

    - `lib._x`, `lib.Class._x`, `lib.f()._x`: any private name reached from a name bound to
      the library (`import discord`, `from aiosqlite import Connection` …);
    - `obj._x` on any other object, when the library uses the name `_x` and this module does
      not define it itself (so the object is not ours: `bot._connection`, `cursor._cursor`);
    - in a class that subclasses a library class: `self._x` that the class does not define
      itself (an inherited private attribute), and a method `_x` the library also has (an
      override of a private method, such as aiosqlite's `_execute`).

    Not seen: a private attribute reached through `getattr` with a computed name, and an
    object of ours whose private attribute happens to share a library's name accessed from
    another module (reported too: cross-module private access is a smell of its own)."""
    nodes = _nodes(text)
    bound = _imported(nodes)
    aliases = {name for name, qualified in bound.items() if _from_library(qualified)}
    theirs = library_private_names()
    own = _own_names(nodes)
    for node in nodes:
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            root = _root(node.value)
            where = f"{module}:{node.lineno}: {ast.unparse(node)}"
            if root in aliases:
                yield f"{where} (a private attribute of {bound[root]})"
            elif (
                root not in ("self", "cls", *bound) and node.attr in theirs and node.attr not in own
            ):
                yield f"{where} (not defined here: the library's)"
        if isinstance(node, ast.ClassDef) and any(_root(b) in aliases for b in node.bases):
            yield from _subclass_findings(module, node, bound)


def _subclass_findings(module: str, node: ast.ClassDef, bound: dict[str, str]) -> Iterator[str]:
    """In a class with a library base: `self._x` it does not define (inherited), and a
    method `_x` one of its library bases has (an override)."""
    inside = tuple(ast.walk(node))
    defined = _own_names(inside)
    bases = []
    for base in node.bases:
        dotted = _dotted(base)
        head, _, rest = dotted.partition(".")
        if head in bound and _from_library(bound[head]):
            bases.append(_library_object(".".join(filter(None, (bound[head], rest)))))
    for item in inside:
        if (
            isinstance(item, ast.Attribute)
            and isinstance(item.value, ast.Name)
            and item.value.id == "self"
            and _is_private(item.attr)
            and item.attr not in defined
        ):
            yield f"{module}:{item.lineno}: self.{item.attr} (inherited from {node.name}'s base)"
    for item in node.body:
        if (
            isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            and _is_private(item.name)
            and any(base is None or hasattr(base, item.name) for base in bases)
        ):
            yield f"{module}:{item.lineno}: {node.name}.{item.name} overrides a private method"


@cache
def _ours() -> tuple[dict[str, str], list[Edge]]:
    modules = sources(ROOT)
    return modules, edges(modules)


def test_the_layers_of_design_md() -> None:
    modules, graph = _ours()
    assert {"core.berger", "storage.guild", "bot.app.arbiter", "cogs.setup"} <= set(modules)
    assert any(e.source.startswith("cogs.") and e.target.startswith("bot.") for e in graph)
    assert layer_violations(graph) == []


def test_the_inner_layers_of_bot() -> None:
    _, graph = _ours()
    assert any(e.source.startswith("bot.league") and e.target == "bot.kernel.errors" for e in graph)
    assert any(within(e.source, "bot.rendering.tour", "bot.rendering.league") for e in graph)
    assert bot_violations(graph) == []
    assert bot_violations(graph, RENDERING_LAYERS) == []


def test_no_two_folders_of_bot_import_each_other_even_at_type_level() -> None:
    modules, graph = _ours()
    typing_only = [e for e in graph if e.typing_only and within(e.source, "bot")]
    assert len(folder_edges(graph, 3)) > 50  # the rule sees the folders' imports
    assert folder_cycles(graph, "bot") == [], f"typing-only imports in bot: {typing_only}"
    top = {name.split(".")[1] for name in modules if within(name, "bot") and name.count(".")}
    placed = {folder.split(".")[1] for layer in BOT_LAYERS for folder in layer}
    assert top - placed == {"__main__"}  # every folder of bot/ has its layer


def test_the_layers_of_storage() -> None:
    """League and tour storage import only the engine and shared repositories, not each other."""
    modules, graph = _ours()
    assert any(
        within(e.source, "storage.tour") and within(e.target, "storage.engine") for e in graph
    )
    assert bot_violations(graph, STORAGE_LAYERS) == []
    top = {name.split(".")[1] for name in modules if within(name, "storage") and name.count(".")}
    placed = {folder.split(".")[1] for layer in STORAGE_LAYERS for folder in layer}
    assert top - placed == set()  # every folder of storage/ has its layer


def test_no_cycle_in_storage_even_at_type_level() -> None:
    modules, graph = _ours()
    typing_only = [e for e in graph if e.typing_only and within(e.source, "storage")]
    assert len([m for m in modules if within(m, "storage")]) > 15
    assert cycles(graph, "storage") == [], f"typing-only imports in storage: {typing_only}"


def test_nothing_reads_or_overrides_private_attributes_of_aiosqlite_or_discord() -> None:
    """The product and its benchmarks (the tests' own Discord doubles may, like the stub)."""
    modules = _ours()[0] | sources(ROOT, ["benchmarks"])
    assert "benchmarks.reports" in modules
    found = [
        finding
        for module, text in modules.items()
        if module != STUB
        for finding in private_access(module, text)
    ]
    assert found == []
    assert list(private_access(STUB, modules[STUB]))  # the stub does, and is seen doing it


# -- each rule shown a violation of its own -------------------------------------------------

STORAGE_CYCLE = {
    "storage": "",
    "storage.engine.database": (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from storage.guild import X\n"
    ),
    "storage.guild": "from storage.engine.database import Database\n",
    "storage.engine.codecs": "",
}


def test_a_cycle_seen_only_by_type_checking_is_found() -> None:
    graph = edges(STORAGE_CYCLE)
    assert Edge("storage.engine.database", "storage.guild", True) in graph
    assert cycles(graph, "storage") == [["storage.engine.database", "storage.guild"]]
    assert cycles(edges(STORAGE_CYCLE | {"storage.engine.database": ""}), "storage") == []


def test_the_layer_and_bot_rules_catch_what_they_forbid() -> None:
    modules = {
        "core.x": "import storage.y\n",
        "storage.y": "from bot.kernel import errors\n",
        "bot.runtime.z": "from bot.league import store\n",
        "bot.league.store": "from bot.app.tree import ArbiterTree\nfrom bot.tour import w\n",
        "bot.tour.w": "from ..kernel import errors\n",
        "bot.kernel.errors": "",
        "bot.app.tree": "",
        "bot.cli.run": "from bot.app.tree import ArbiterTree\n",
        "cogs.a": "import storage.y\n",
        "bot.b": "import cogs.a\n",
        "bot.app": "",
        "bot.kernel": "",
        "bot.league": "",
        "bot.tour": "",
    }
    graph = edges(modules)
    assert Edge("bot.tour.w", "bot.kernel.errors", False) in graph  # a relative import
    assert sorted(layer_violations(graph)) == [
        "bot.b -> cogs.a",
        "cogs.a -> storage.y",
        "core.x -> storage.y",
        "storage.y -> bot.kernel.errors",
    ]
    assert sorted(bot_violations(graph)) == [
        "bot.league is not above bot.app: bot.league.store -> bot.app.tree",
        "bot.league is not above bot.tour: bot.league.store -> bot.tour.w",
        "bot.runtime is not above bot.league: bot.runtime.z -> bot.league.store",
    ]


FOLDER_CYCLE = {
    "bot.tour": "",
    "bot.tour.games": "",
    "bot.tour.games.service": "from bot.tour.series.awards import award\n",
    "bot.tour.series": "",
    "bot.tour.series.awards": "if TYPE_CHECKING:\n    from bot.tour.games import service\n",
    "bot.tour.store": "from bot.tour.games.service import x\n",
    "bot.tour.games.reads": "from bot.tour.store import LoadedEvent\n",
}


def test_two_folders_importing_each_other_are_found_at_any_depth() -> None:
    """Two folders of bot.tour importing each other, one of the imports only for type
    checking; a module of bot.tour itself and one inside its folder may import each other."""
    graph = edges(FOLDER_CYCLE)
    assert folder_cycles(graph, "bot") == [["bot.tour.games", "bot.tour.series"]]
    assert Edge("bot.tour.series", "bot.tour.games", True) in folder_edges(graph, 3)
    no_typing = FOLDER_CYCLE | {"bot.tour.series.awards": ""}
    assert folder_cycles(edges(no_typing), "bot") == []
    upward = edges({"bot.formats.a": "import bot.kernel.b\n", "bot.kernel.b": ""})
    assert folder_cycles(upward, "bot") == []  # one way is not a cycle: the layers catch it
    assert bot_violations(upward) == [
        "bot.formats is not above bot.kernel: bot.formats.a -> bot.kernel.b"
    ]


SNEAKY = """
import aiosqlite
import discord
from discord.ext import commands


class Batching(aiosqlite.Connection):
    async def _execute(self, fn):
        return self._conn


class Bot(commands.Bot):
    def __init__(self):
        self._mine = 1

    def state(self):
        return self._connection, self._mine


def reach(bot, cursor):
    discord.Member._from_client_user
    return bot._connection, cursor._cursor, bot.http.request
"""


def test_the_private_attribute_scan_catches_reads_and_overrides() -> None:
    found = [line.split(": ", 1)[1] for line in private_access("sneaky", SNEAKY)]
    assert sorted(found) == sorted(
        [
            "Batching._execute overrides a private method",
            "self._conn (inherited from Batching's base)",
            "self._connection (inherited from Bot's base)",
            "discord.Member._from_client_user (a private attribute of discord)",
            "bot._connection (not defined here: the library's)",
            "cursor._cursor (not defined here: the library's)",
        ]
    )
