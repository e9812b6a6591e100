"""Every path and ``python -m`` module the documents name exists in the repository.

The documents: README.md, docs/*.md and models/MODEL_CARD.md. What is checked:

- every relative link target ``[text](target)``, from the document's own folder (an ``#anchor`` is
  dropped; ``http(s)://`` and other URLs, and links that are only an anchor, are not paths);
- every word inside inline code or a fenced code block that contains a ``/`` (a path), from the
  repository root; with a ``*`` it must match at least one file;
- every ``something.md`` named in inline code or a link, from the document's folder or the root;
- every ``python -m MODULE``: a module of the project (its first part a folder of the repository) must
  be a file (``a/b.py``, ``a/b/__main__.py`` or ``a/b/__init__.py``); any other must be importable here
  (``pip``, ``venv``, ``pytest``, ``streamlit``).

Not checked, because a clone does not hold them and they are made or named elsewhere: URLs; absolute
paths (``/tmp/...``, ``/usr/...``); the user's home and cache (``~/...``, ``$SHISANSHUI_CACHE``, any
``$VAR``, ``VAR=value``); npm packages (``@scope/name``); placeholders (``<split>``, ``…``,
``{a,b}``); generated data (``datasets/generated/...``); the virtual environment ``make`` creates
(``.venv/...``); and the data the project's machines share beside the repository (``../shared/...``,
``shared/...``), which README.md must not name at all.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "models" / "MODEL_CARD.md", *(ROOT / "docs").glob("*.md")])
NOT_IN_A_CLONE = ("datasets/generated/", ".venv/", "../shared/", "shared/")
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"`([^`\n]+)`")
MODULE = re.compile(r"python3?\s+-m\s+([A-Za-z_][\w.]*)")
PLACEHOLDER = re.compile(r"[<>…{}]|\.\.\.(?!/)|^\$|\$\(")


def _code(text: str) -> list[str]:
    """The words of the document's code: fenced blocks, then inline code outside them."""
    blocks = FENCE.findall(text)
    rest = FENCE.sub("", text)
    return [w for chunk in [*blocks, *INLINE.findall(rest)] for w in chunk.split()]


def _clean(word: str) -> str:
    """The path in a word: quotes, brackets and punctuation around it, and a pytest ``::test`` after it, off."""
    return word.split("::", 1)[0].strip("\"'`,;:()[]").rstrip(".")


def _is_checked_path(word: str) -> bool:
    if "/" not in word or "://" in word or PLACEHOLDER.search(word):
        return False
    if word.startswith(("/", "~", "-", "$", "@")) or "=" in word or not re.search(r"[A-Za-z]", word):
        return False
    return not word.startswith(NOT_IN_A_CLONE)


def _exists(base: Path, target: str) -> bool:
    if "*" in target:
        return any(base.glob(target))
    return (base / target).exists()


def _module_exists(name: str) -> bool:
    parts = name.split(".")
    if (ROOT / parts[0]).is_dir():
        path = ROOT.joinpath(*parts)
        return any(p.is_file() for p in (path.with_suffix(".py"), path / "__main__.py", path / "__init__.py"))
    return importlib.util.find_spec(parts[0]) is not None


def missing(document: Path) -> list[str]:
    """What ``document`` names that does not exist, each as 'kind: name'."""
    text = document.read_text(encoding="utf-8")
    problems = []
    for target in LINK.findall(text):
        target = target.split("#", 1)[0]
        if not target or ":" in target or target.startswith("/"):
            continue
        if not (document.parent / target).exists():
            problems.append(f"link: {target}")
    for word in map(_clean, _code(text)):
        if _is_checked_path(word) and not _exists(ROOT, word):
            problems.append(f"path: {word}")
        elif word.endswith(".md") and "/" not in word and not PLACEHOLDER.search(word):
            if not ((document.parent / word).exists() or (ROOT / word).exists()):
                problems.append(f"document: {word}")
    for name in MODULE.findall(text):
        if not _module_exists(name.rstrip(".")):
            problems.append(f"module: python -m {name}")
    return problems


def test_the_documents_are_there() -> None:
    names = {str(d.relative_to(ROOT)) for d in DOCUMENTS}
    assert {"README.md", "models/MODEL_CARD.md", "docs/rules.md", "docs/cli.md", "docs/training.md",
            "docs/development.md", "docs/photo-pipeline.md", "docs/detector-notes.md"} <= names


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_path_and_module_named_exists(document: Path) -> None:
    assert missing(document) == []


def test_the_readme_names_nothing_outside_the_clone() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not re.search(r"(?<![\w/.])(\.\./)?shared/", text)
    assert "RULES.md" not in text


def test_a_missing_path_or_module_is_found(tmp_path: Path) -> None:
    """The checker itself: what it must catch, and what it must leave alone."""
    doc = tmp_path / "doc.md"
    doc.write_text("See [the rules](nowhere.md), `referee/nothing.py`, `RULES.md`, `tests/test_none.py::test_x`, "
                   "`tests/test_docs_paths.py::test_the_documents_are_there`:\n\n"
                   "```sh\npython -m vision.nothing --out datasets/generated/x ~/.cache/y /tmp/z\n"
                   "python -m referee check \"As | Ks\"   # images/<split>/*.jpg, referee/rulesets/*.toml\n```\n"
                   "<https://example.org/a/b> and [a site](https://example.org/c).\n")
    assert sorted(missing(doc)) == ["document: RULES.md", "link: nowhere.md", "module: python -m vision.nothing",
                                    "path: referee/nothing.py", "path: tests/test_none.py"]
