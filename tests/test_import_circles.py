"""No import circle inside `netplay` or `tui`: modules that import each other are one module in
two files, which no one can read, test or change alone. Every import counts, read from the
syntax: at the top, inside a function, and under `if TYPE_CHECKING:`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import netplay
import tui

def modules_in(package) -> dict[str, Path]:
    """Each module of `package` (its subpackages' too) by dotted name, and its source."""
    root = Path(package.__file__).parent
    modules = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the same package that `name` imports, anywhere in its source. An import
    of a name from a package counts as an import of that submodule when there is one."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                # `from .x import y` in a.b.c is a.b.x; in the package a.b itself, a.b.x.
                here = name.split(".")
                base = here[: len(here) - node.level + (1 if is_package else 0)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            # The longest prefix that is one of the package's modules.
            parts = target.split(".")
            while parts and ".".join(parts) not in modules:
                parts.pop()
            if parts and ".".join(parts) != name:
                found.add(".".join(parts))
    return found


def circles(package) -> list[frozenset[str]]:
    """The import circles among `package`'s modules: the strongly connected components of
    more than one module (Tarjan's algorithm)."""
    modules = modules_in(package)
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(module: str) -> None:
        index[module] = lowest[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in graph[module]:
            if imported not in index:
                visit(imported)
                lowest[module] = min(lowest[module], lowest[imported])
            elif imported in on_stack:
                lowest[module] = min(lowest[module], index[imported])
        if lowest[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_netplay_has_no_import_circle():
    assert circles(netplay) == []


def test_tui_has_no_import_circle():
    assert circles(tui) == []


def test_the_import_reader_sees_inner_and_type_checking_imports(tmp_path):
    source = tmp_path / "pkg"
    source.mkdir()
    (source / "__init__.py").write_text("")
    (source / "a.py").write_text("from typing import TYPE_CHECKING\n"
                                 "if TYPE_CHECKING:\n    from pkg.b import B\n")
    (source / "b.py").write_text("def f():\n    from . import c\n")
    (source / "c.py").write_text("import pkg.a\n")
    package = type("Package", (), {"__file__": str(source / "__init__.py")})
    assert circles(package) == [frozenset({"pkg.a", "pkg.b", "pkg.c"})]
