"""The pages' HTML, CSS and script files, read from the package and inlined."""

from __future__ import annotations

import html
import json
import re
from importlib.resources import files


def read(name: str) -> str:
    return (files("meeplezoo.agents.web") / "static" / name).read_text(encoding="utf-8")


def script_json(data) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>`` can appear)."""
    text = json.dumps(data, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def fill(template: str, **values: str) -> str:
    """Put each ``{{KEY}}`` of ``template`` in one pass (inserted text is not scanned again)."""
    return re.sub(r"\{\{([A-Z]+)\}\}", lambda match: values[match.group(1)], template)


def page(template: str, title: str, styles: list[str], scripts: list[str], data=None) -> str:
    """A self-contained page: the template with its styles, scripts and data inlined."""
    return fill(
        read(template),
        TITLE=html.escape(title),
        STYLE="\n".join(read(name) for name in styles),
        SCRIPT="\n".join(read(name) for name in scripts),
        DATA="" if data is None else script_json(data),
    )
