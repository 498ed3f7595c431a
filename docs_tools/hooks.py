"""MkDocs hooks (``hooks:`` in mkdocs.yml): generated tables and results pages.

``on_files`` adds one page per ``benchmarks/results/*.md`` under ``results/``,
so every measured figure is on the site from the file the tools wrote;
``on_page_markdown`` expands the ``<!-- generated: ... -->`` markers. Links
in generated text that point at repository files outside the site become
plain text naming the file, so a strict build never meets a dead link.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # MkDocs loads this file by path; the generators import docs_tools
    sys.path.insert(0, str(ROOT))

from mkdocs.structure.files import File  # noqa: E402

from docs_tools.figures import RESULTS  # noqa: E402
from docs_tools.pages import MARKER, expand  # noqa: E402

LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


def on_files(files, config):
    for path in sorted(RESULTS.glob("*.md")):
        uri = f"results/{path.name}"
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, content=path.read_text(encoding="utf-8")))
    return files


def _page_exists(target: str, page_uri: str, known: set[str]) -> bool:
    if re.match(r"^[a-z]+:", target) or target.startswith("#"):
        return True
    path = target.split("#", 1)[0]
    resolved = (Path(page_uri).parent / path).as_posix()
    parts: list[str] = []
    for part in resolved.split("/"):
        if part == "..":
            if not parts:
                return False  # above the site's root
            parts = parts[:-1]
        elif part not in (".", ""):
            parts.append(part)
    return "/".join(parts) in known


def unlink_outside(markdown: str, page_uri: str, known: set[str]) -> str:
    """Links to files the site does not have become the text and the file's name."""

    def replace(match: re.Match) -> str:
        text, target = match.group(1), match.group(2)
        if _page_exists(target, page_uri, known):
            return match.group(0)
        name = target.split("#", 1)[0].lstrip("./")
        return text if text.strip("`") == name else f"{text} (`{name}`)"

    return LINK.sub(replace, markdown)


def on_page_markdown(markdown, page, config, files):
    """Generated text (a results file, a marker's expansion) loses links to files outside
    the site; what the page's author typed is left to the strict build to check."""
    known = {file.src_uri for file in files}
    uri = page.file.src_uri
    if uri.startswith("results/") and uri != "results/index.md":
        return unlink_outside(markdown, uri, known)
    if not MARKER.search(markdown):
        return markdown
    return expand(markdown, post=lambda text: unlink_outside(text, uri, known))
