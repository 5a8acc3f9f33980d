"""The maker's docs work in both shells a maker is likely to have: README's install step makes and
activates a virtual environment in bash and in PowerShell, and every ``export VAR=...`` a page
shows has its PowerShell form (``$env:VAR = "..."``) in a ``powershell`` block of the same page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
EXPORT = re.compile(r"^\s*export ([A-Z][A-Z0-9_]*)=", re.MULTILINE)
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])


def _blocks(text: str, language: str) -> str:
    return "".join(body for lang, body in BLOCK.findall(text) if lang == language)


def test_the_readme_install_step_makes_and_activates_a_virtual_environment() -> None:
    install = README[README.index("## Install") : README.index("## A five-minute tour")]
    bash, powershell = _blocks(install, "sh"), _blocks(install, "powershell")
    assert "python -m venv .venv\nsource .venv/bin/activate\n" in bash
    # python works with the python.org and the Microsoft Store installs; py (said after) only
    # with python.org's
    assert "python -m venv .venv\n.venv\\Scripts\\Activate.ps1\n" in powershell
    assert "`py -m venv .venv`" in install
    # Made before anything is installed into it.
    assert install.index("source .venv/bin/activate") < install.index("python -m pip install .")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_export_has_its_powershell_form(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    exported = set(EXPORT.findall(_blocks(text, "sh") + _blocks(text, "bash")))
    powershell = _blocks(text, "powershell")
    missing = sorted(v for v in exported if not re.search(rf"\$env:{v} = ", powershell))
    assert not missing, f"{page.name}: no PowerShell form of export {', '.join(missing)}"


def test_a_page_sets_the_direct_line_secret_both_ways() -> None:
    """The check above has something to check: the deployed-bots page exports the secret."""
    text = (ROOT / "docs" / "deployed-bots.md").read_text(encoding="utf-8")
    assert "DIRECTLINE_SECRET" in EXPORT.findall(_blocks(text, "sh"))
    assert '$env:DIRECTLINE_SECRET = "..."' in _blocks(text, "powershell")
