"""The documentation site builds in strict mode: broken links, pages left out of the nav and
docstrings the API reference cannot read fail the build (``make docs`` runs the same)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
    pytest.skip(
        "mkdocs and its theme are not installed (extra 'docs'; `make test` installs it)",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "NO_COLOR": "1"},
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def test_the_site_builds_in_strict_mode_with_every_page(site: Path) -> None:
    pages = sorted(
        p.relative_to(ROOT / "docs").with_suffix("")
        for p in (ROOT / "docs").rglob("*.md")
        if p.name != "README.md"
    )
    for page in pages:
        assert (site / page).with_suffix(".html").is_file(), page
    assert (site / "index.html").is_file()  # docs/README.md is the home page


HREF = re.compile(r'href="([^"#?]*)(?:[#?][^"]*)?"')


def test_every_page_link_works_opened_from_disk(site: Path) -> None:
    """A browser opening ``site/index.html`` from disk follows links as files: a link to a folder
    shows a directory listing there, so every page link must name an existing file."""
    broken = []
    for page in site.rglob("*.html"):
        for target in HREF.findall(page.read_text(encoding="utf-8")):
            if not target or "://" in target or target.startswith(("mailto:", "data:", "/")):
                continue
            resolved = (page.parent / target).resolve()
            if target.endswith("/") or not resolved.is_file():
                broken.append(f"{page.relative_to(site)} -> {target}")
    assert broken == []
    # The link once found going to a directory listing: "The contract" in the home page's nav.
    home = (site / "index.html").read_text(encoding="utf-8")
    contract = re.search(r'<a href="([^"#]+)"[^>]*>(?:(?!</a>).)*?The contract', home, re.DOTALL)
    assert contract is not None and contract.group(1) == "contract.html"
    assert (site / contract.group(1)).is_file()


def test_the_api_reference_is_generated_from_the_docstrings(site: Path) -> None:
    html = (site / "api" / "harness.html").read_text(encoding="utf-8")
    for name in ("Parent", "ChildAgent", "ConfigError", "load_bot", "render_instructions"):
        assert f'id="harness.{name}"' in html, name
    # A docstring's own words, not just the name.
    assert "The generated instructions of a bot" in html


def test_the_changelog_page_is_the_changelog(site: Path) -> None:
    html = (site / "changelog.html").read_text(encoding="utf-8")
    assert "Unreleased" in html
    assert "--8&lt;--" not in html and "--8<--" not in html
