"""The site builds with no warning, shows every game, and its pictures are current.

``mkdocs build --strict`` turns every warning (a dead link or anchor, a page
missing from the build, an API object that cannot be found) into a failure.
The pictures drawn from code and from the results JSON are drawn again and
compared pixel for pixel with the committed files, so a changed render or a
new result fails here until ``python -m docs_tools`` has been run.
"""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest
import yaml
from PIL import Image

import meeplezoo
from docs_tools.figures import IMAGES, base_name, figures
from tests.docs.extract import ROOT

DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stderr[-5000:]}"
    return site


def test_site_builds_strict_with_every_game_page(built_site):
    for name in meeplezoo.names():
        page = (built_site / "games" / base_name(name) / "index.html").read_text(encoding="utf-8")
        for anchor in ("configuration", "actions", "observation", "version-history", "rules"):
            assert f'id="{anchor}"' in page, f"the {name} page has no {anchor} section"
        assert f"images/games/{base_name(name)}.png" in page
    assert (built_site / "api" / "env" / "index.html").read_text(encoding="utf-8").count("MeepleEnv") > 1
    assert (built_site / "results" / "training" / "index.html").exists()


def test_every_game_has_a_page_in_the_navigation():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    games = next(entry["Games"] for entry in config["nav"] if isinstance(entry, dict) and "Games" in entry)
    listed = {item for item in games if isinstance(item, str)}
    for name in meeplezoo.names():
        page = f"games/{base_name(name)}.md"
        assert page in listed, f"mkdocs.yml's Games section lacks {page}"
        assert (DOCS / page).read_text().strip() == f"<!-- generated: game {base_name(name)} -->"


def _pictures(path) -> list[str]:
    return re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", path.read_text(encoding="utf-8"))


def test_every_picture_a_page_shows_exists():
    pages = [*DOCS.rglob("*.md"), ROOT / "README.md"]
    shown = 0
    for page in pages:
        for target in _pictures(page):
            assert (page.parent / target).resolve().is_file(), (
                f"{page.relative_to(ROOT)} shows {target}: missing"
            )
            shown += 1
    assert shown >= 10
    from docs_tools import pages  # the generated game pages show the board pictures

    assert f"../images/games/{base_name(meeplezoo.names()[0])}.png" in pages.game_page(
        base_name(meeplezoo.names()[0])
    )


@pytest.mark.parametrize("relative", sorted(figures()))
def test_committed_picture_is_what_the_generator_draws_now(relative):
    drawn = np.asarray(figures()[relative]().convert("RGB"))
    committed = np.asarray(Image.open(IMAGES / relative).convert("RGB"))
    assert drawn.shape == committed.shape and np.array_equal(drawn, committed), (
        f"docs/images/{relative} is stale: run python -m docs_tools"
    )
