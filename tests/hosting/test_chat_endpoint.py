"""``harness chat --endpoint``: the chat is a served bot's channel, and continues a conversation
across a restart of ``harness serve`` with SQLite storage (issue 29)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.hosting._support import HARNESS, STOP_WITHIN_S, serving


def _chat(url: str, conversation: str, *lines: str, verbose: bool = False) -> tuple[str, str]:
    """``harness chat --endpoint URL --conversation ID`` with ``lines`` piped in."""
    result = subprocess.run(
        [
            *HARNESS,
            "chat",
            *(["-v"] if verbose else []),
            "--endpoint",
            url,
            "--conversation",
            conversation,
            "--quiet-period",
            "0.3",
        ],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout, result.stderr


def test_chat_continues_a_conversation_across_a_serve_restart(tmp_path: Path) -> None:
    database = tmp_path / "state.sqlite"
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    with serving(first, "--storage", str(database)) as (process, url, _log):
        out, err = _chat(
            url,
            "persist-1",
            "I want to change my direct deposit account",
            "/plan",
            "The new account is 400123456",
        )
        process.terminate()
        assert process.wait(timeout=STOP_WITHIN_S) == 0
    lines = out.splitlines()
    assert len(lines) == 2 and all(
        line.startswith("direct_deposit (conversational): ") for line in lines
    ), out + err
    assert "ending in 3456? (yes/no)" in lines[1]
    assert "direct_deposit: I want to change my direct deposit account" in err  # /plan
    assert "conversation persist-1" in err
    # A new server process on the same file: the conversation goes on where it stopped.
    with serving(second, "--storage", str(database)) as (process, url, _log):
        out, err = _chat(url, "persist-1", "yes")
        fresh, _ = _chat(url, "someone-else", "yes")
        process.terminate()
        assert process.wait(timeout=STOP_WITHIN_S) == 0
    assert out.startswith("direct_deposit (conversational): Done:"), out + err
    assert "3456" in out
    # The same "yes" in a conversation the store does not have confirms nothing.
    assert not fresh.startswith("direct_deposit"), fresh
