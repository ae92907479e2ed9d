"""Strategy trees drawn: the guess at each node, the reply on each edge, the secrets that reach
a node and what they cost, the subtrees below a chosen depth folded into one box.

Graphviz (`dot`) lays the tree out; this module builds the graph with the `graphviz` Python
package and asks `dot` for SVG, PNG or PDF. A `.dot`/`.gv` file is the graph's source and
needs no Graphviz program. `dot` missing is one line (ArenaError), not a traceback. Every label
is passed through `graphviz.escape`: a game's symbols are the user's (an alphabet of `"\\<`), and
Graphviz would otherwise read `\\N` as the node's name and `<...>` as an HTML label.

    draw_tree(tree, "knuth.svg", depth=2)      # or tree.draw("knuth.svg", depth=2)
"""

from __future__ import annotations

from pathlib import Path

from ..core.errors import ArenaError
from ..core.outfile import file_format
from .tree import Node, Tree

#: What --plot can write: Graphviz's renderers, or the graph's source.
FORMATS = ("svg", "png", "pdf", "dot", "gv")
#: A drawing with more boxes than this is unreadable: ask for a smaller depth instead.
MAX_BOXES = 600
#: The default depth of a drawing: the first guess and the guesses after each reply.
DEPTH = 2


def draw_tree(
    tree: Tree, path: str | Path, depth: int | None = DEPTH, min_count: int = 1, guesser: str | None = None
) -> Path:
    """Draw `tree` to `path` (.svg, .png, .pdf by Graphviz's `dot`; .dot or .gv: the source).

    Decision points `depth` guesses deep or deeper (None: no limit) are folded into one box
    per subtree, as are those reached by fewer than `min_count` secrets; the title names the
    guesser as `guesser` (default the tree's own spec: `knuth` is saved as `minimax`). Returns the path."""
    path = Path(path)
    kind = plot_format(path)
    graph = tree_graph(tree, depth, min_count, guesser)
    if kind in ("dot", "gv"):
        path.write_text(graph.source)
        return path
    import graphviz  # lazy: heavy

    try:
        path.write_bytes(graph.pipe(format=kind))
    except graphviz.ExecutableNotFound:
        raise ArenaError(missing_dot(path)) from None
    return path


def plot_format(path: str | Path) -> str:
    """The drawing's format, from the file name; an unknown one is one line naming the known."""
    return file_format(
        path, FORMATS, f"cannot draw a tree as {Path(path).name!r}: name a .svg, .png, .pdf or .dot file"
    )


def check_drawable(path: str | Path) -> None:
    """Before the work: a format this module writes, and Graphviz's `dot` where it is needed."""
    import shutil

    kind = plot_format(path)
    if kind not in ("dot", "gv") and shutil.which("dot") is None:
        raise ArenaError(missing_dot(Path(path)))


def missing_dot(path: Path) -> str:
    return (
        f"drawing {path.name} needs Graphviz's `dot` program, which is not installed "
        f"(apt-get install graphviz, brew install graphviz), or write {path.stem}.dot"
    )


def tree_graph(tree: Tree, depth: int | None = DEPTH, min_count: int = 1, guesser: str | None = None):
    """The tree as a `graphviz.Digraph`: a box per decision point drawn, a folded box per
    subtree below `depth` (or under `min_count` secrets), an edge per reply, written as the
    strategy table's History column writes it (`RW` for one black and one white peg)."""
    import graphviz  # lazy: heavy

    if depth is not None and depth < 1:
        raise ArenaError(f"a drawing needs depth 1 or more, got {depth}")
    boxes = count_boxes(tree, depth, min_count)
    if boxes > MAX_BOXES:
        raise ArenaError(
            f"the tree drawn to depth {depth} has {boxes:,} boxes, too many to read: "
            "draw fewer levels (--depth) or only the big classes (--min-count)"
        )
    graph = graphviz.Digraph(
        "tree",
        graph_attr={
            "rankdir": "LR",
            "nodesep": "0.15",
            "ranksep": "0.5",
            "label": _text(title(tree, guesser)),
            "labelloc": "t",
            "fontname": "Helvetica",
        },
        node_attr={
            "shape": "box",
            "style": "rounded,filled",
            "fontname": "Helvetica",
            "fontsize": "10",
            "fillcolor": "#e8f0fe",
            "color": "#4a6fa5",
        },
        edge_attr={"fontname": "Helvetica", "fontsize": "9", "color": "#777777"},
    )
    names = iter(range(10**9))
    for root in tree.roots:
        _draw(graph, tree, root, f"n{next(names)}", depth, min_count, names)
    return graph


def title(tree: Tree, guesser: str | None = None) -> str:
    costs = tree.guesses[tree.secrets]
    return (
        f"{guesser or tree.guesser} on {tree.game.spec}: {len(costs):,} secrets, total {int(costs.sum()):,} guesses, "
        f"mean {costs.mean():.3f}, worst {int(costs.max())}"
    )


def count_boxes(tree: Tree, depth: int | None, min_count: int) -> int:
    """How many boxes the drawing has: every node drawn, and one per folded subtree."""
    count, stack = 0, list(tree.roots)
    while stack:
        node = stack.pop()
        count += 1
        if not folded(node, depth, min_count):
            stack.extend(node.children.values())
    return count


def folded(node: Node, depth: int | None, min_count: int) -> bool:
    """Is the subtree below this node drawn as one box?"""
    return bool(node.children) and (depth is not None and node.depth >= depth or len(node.candidates) < min_count)


def node_label(tree: Tree, node: Node) -> str:
    """The guess, and the secrets that reach it with their cost: count, total (mean, worst)."""
    cost = tree.cost_of(node)
    opening = f"{node.opening}\n" if node.opening and not node.replies else ""
    return (
        f"{opening}{tree.game.guesses[node.guess]}\n{_secrets(len(cost))}\n"
        f"{int(cost.sum()):,} guesses ({cost.mean():.2f}, worst {int(cost.max())})"
    )


def fold_label(tree: Tree, node: Node) -> str:
    """A subtree drawn as one box: its size and cost."""
    cost = tree.cost_of(node)
    inner = sum(1 for _ in node.walk())
    return (
        f"{tree.game.guesses[node.guess]} ...\n{inner:,} decision points\n{_secrets(len(cost))}, "
        f"{int(cost.sum()):,} guesses\n(mean {cost.mean():.2f}, worst {int(cost.max())})"
    )


def edge_label(tree: Tree, reply) -> str:
    """A reply as the strategy table writes it in its History column, without the bar; the
    reply that shows nothing (no pegs) as `none`."""
    return tree.game.history_label([reply]).removeprefix("|") or "none"


def _text(label: str) -> str:
    """A label that Graphviz shows as written: backslashes doubled, never read as HTML."""
    import graphviz  # lazy: heavy

    return graphviz.escape(label)


def _secrets(n: int) -> str:
    return f"{n:,} secret" + ("s" if n != 1 else "")


def _draw(graph, tree: Tree, node: Node, name: str, depth: int | None, min_count: int, names) -> None:
    """This node's box, and below it its children's (walked with a stack, not recursion)."""
    spread = columns_for(tree, depth, min_count)
    stack = [(node, name)]
    while stack:
        node, name = stack.pop()
        if folded(node, depth, min_count):
            graph.node(name, _text(fold_label(tree, node)), fillcolor="#f1f1f1", style="rounded,filled,dashed")
            continue
        graph.node(name, _text(node_label(tree, node)), fillcolor="#e8f0fe" if node.children else "#e6f4ea")
        columns = spread if fans_out(node, depth, min_count) else 1
        for j, reply in enumerate(sorted(node.children)):
            child = f"n{next(names)}"
            graph.edge(name, child, label=_text(edge_label(tree, reply)), minlen=str(1 + j % columns))
            stack.append((node.children[reply], child))


def fans_out(node: Node, depth: int | None, min_count: int) -> bool:
    """Are a node's children many boxes with none of their own drawn (the last column of a drawing,
    which alone would make it a thin strip)?"""
    children = node.children.values()
    return len(children) >= 4 and not any(c.children and not folded(c, depth, min_count) for c in children)


def columns_for(tree: Tree, depth: int | None, min_count: int) -> int:
    """Over how many columns the last boxes are spread (a child of a node that fans out j-th goes
    1 + j mod columns ranks further), so that the drawing is about as tall as it is wide:
    Knuth's tree to depth 2 was a strip of 817 x 8,129 pixels. A box is about 3 times as wide as
    it is tall (left to right), so n boxes in c columns are about as tall as c + 2 columns wide
    when c is about sqrt(n / 3)."""
    last, stack = 0, list(tree.roots)
    while stack:
        node = stack.pop()
        if folded(node, depth, min_count):
            continue
        if fans_out(node, depth, min_count):
            last += len(node.children)
        else:
            stack.extend(node.children.values())
    return min(8, max(1, round((last / 3) ** 0.5)))
