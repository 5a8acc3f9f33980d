"""``harness chat`` on a real terminal (a pseudo-terminal): line editing, history and Ctrl-C.

The chat runs in its own process, with the pty as its controlling terminal, so Ctrl-C is the
byte ``\\x03`` typed at the keyboard and the terminal turns it into SIGINT, as for a user.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.core._support import HELPDESK, ROOT

pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX only")
termios = pytest.importorskip("termios", reason="pseudo-terminals are POSIX only")
pytest.importorskip("readline", reason="this Python has no readline (line editing)")

PROMPT = b"you> "
UP = b"\x1b[A"
CTRL_C = b"\x03"
DEADLINE = 30.0
"""Seconds to wait for output before the test fails (a hang, not a speed check)."""

# Make the pty the controlling terminal, so that ^C becomes SIGINT, then run the CLI.
# The chat as a shell would start it in a terminal: the pty as its controlling terminal, and
# Ctrl-C's default handler (a test run started in the background, as `cmd &` in a script, passes
# SIGINT on ignored, and Python then never turns Ctrl-C into KeyboardInterrupt).
_LAUNCH = (
    "import fcntl, signal, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); "
    "signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from harness.cli import main; sys.argv[0] = 'harness'; main()"
)


class Terminal:
    """The user's side of a pseudo-terminal running ``harness ARGS``."""

    def __init__(self, *args: str, cwd: Path, history: Path | str, state: Path) -> None:
        self.master, slave = pty.openpty()
        env = {
            **os.environ,
            "TERM": "xterm",
            "NO_COLOR": "1",
            "PYTHONPATH": str(ROOT),
            "HARNESS_CHAT_HISTORY": str(history),
            # Where the default history file would go: never the user's own home.
            "XDG_STATE_HOME": str(state),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-c", _LAUNCH, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.screen = b""

    def expect(self, text: bytes) -> bytes:
        """Read until ``text`` appears; return everything read up to and including it."""
        end = time.monotonic() + DEADLINE
        while text not in self.screen:
            remaining = end - time.monotonic()
            assert remaining > 0, f"never saw {text!r}; the screen:\n{self.screen.decode()}"
            ready, _, _ = select.select([self.master], [], [], min(remaining, 0.5))
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the child closed the terminal
                    chunk = b""
                assert chunk, f"the chat ended before {text!r}:\n{self.screen.decode()}"
                self.screen += chunk
        head, _, tail = self.screen.partition(text)
        self.screen = tail
        return head + text

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def interrupt(self) -> None:
        """Type Ctrl-C once the chat is blocked waiting (for a key or for its turn).

        A signal that lands between printing the prompt and blocking in ``select()`` is only
        noticed at the next key (a CPython readline race, microseconds wide for a person but
        not for a test that types the moment the prompt appears), so wait for the process to
        sleep first. Where ``/proc`` is missing, type at once.
        """
        stat = Path(f"/proc/{self.process.pid}/stat")
        end = time.monotonic() + DEADLINE
        while stat.exists() and time.monotonic() < end:
            # "pid (comm) STATE ...": S is asleep in a blocking call.
            if stat.read_text().rpartition(")")[2].split()[0] == "S":
                break
            time.sleep(0.01)
        self.type(CTRL_C)

    def exit_code(self) -> int:
        return self.process.wait(timeout=DEADLINE)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


@pytest.fixture
def terminals(tmp_path: Path) -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


@pytest.fixture
def history(tmp_path: Path) -> Path:
    """The chat's history file for the test (never the user's own)."""
    return tmp_path / "state" / "chat_history"


def _chat(
    terminals: list[Terminal],
    *args: str,
    history: Path | str,
    cwd: Path = ROOT,
    state: Path | None = None,
) -> Terminal:
    state = state or Path(history).parent / "xdg-state"
    terminal = Terminal("chat", *args, cwd=cwd, history=history, state=state)
    terminals.append(terminal)
    terminal.expect(PROMPT)
    return terminal


def test_one_ctrl_c_at_the_prompt_ends_the_chat_with_130(
    terminals: list[Terminal], history: Path
) -> None:
    terminal = _chat(terminals, str(HELPDESK), history=history)
    terminal.interrupt()
    assert terminal.exit_code() == 130


def test_ctrl_d_ends_the_chat_with_0(terminals: list[Terminal], history: Path) -> None:
    terminal = _chat(terminals, str(HELPDESK), history=history)
    terminal.type(b"\x04")
    assert terminal.exit_code() == 0


def test_the_up_arrow_recalls_the_last_message_and_enter_sends_it_again(
    terminals: list[Terminal], history: Path
) -> None:
    terminal = _chat(terminals, str(HELPDESK), history=history)
    terminal.type(b"how many vacation days do I have left\r")
    terminal.expect(b"answered by pto")
    terminal.expect(PROMPT)
    terminal.type(UP)
    recalled = terminal.expect(b"left")
    assert b"^[[A" not in recalled  # the arrow key edits the line; it is not printed
    terminal.type(b"\r")
    assert b"You have 12 PTO days left" in terminal.expect(b"answered by pto")
    terminal.expect(PROMPT)
    terminal.type(b"exit\r")
    assert terminal.exit_code() == 0


def test_left_arrow_edits_inside_the_line(terminals: list[Terminal], history: Path) -> None:
    terminal = _chat(terminals, str(HELPDESK), history=history)
    # "/pan", two steps left, insert "l": the line sent is "/plan".
    terminal.type(b"/pan" + b"\x1b[D\x1b[D" + b"l\r")
    assert b"no turn yet" in terminal.expect(b"no turn yet")
    terminal.type(b"exit\r")
    assert terminal.exit_code() == 0


def test_the_history_is_kept_between_chats(terminals: list[Terminal], history: Path) -> None:
    first = _chat(terminals, str(HELPDESK), history=history)
    first.type(b"when is my next payday\r")
    first.expect(b"findings from payroll")
    first.expect(PROMPT)
    first.interrupt()  # even a chat ended by Ctrl-C keeps its history
    assert first.exit_code() == 130
    assert "when is my next payday" in history.read_text(encoding="utf-8")
    # What a user typed can be private: the history is the owner's alone.
    assert history.stat().st_mode & 0o777 == 0o600
    second = _chat(terminals, str(HELPDESK), history=history)
    second.type(UP)
    second.expect(b"payday")
    second.type(b"\r")
    assert b"Friday, December 4" in second.expect(b"findings from payroll")


def test_an_empty_history_setting_keeps_no_file(terminals: list[Terminal], tmp_path: Path) -> None:
    terminal = _chat(terminals, str(HELPDESK), history="", state=tmp_path / "xdg-state")
    terminal.type(b"when is my next payday\r")
    terminal.expect(b"findings from payroll")
    terminal.expect(PROMPT)
    terminal.type(b"exit\r")
    assert terminal.exit_code() == 0
    assert not list(tmp_path.rglob("*history*"))


_SLOW_BOT = """
import asyncio
import time

from harness import ChildAgent, Parent


async def never_async() -> str:
    \"\"\"How many paid time off (vacation) days are left.\"\"\"
    print("looking it up", flush=True)
    await asyncio.sleep(3600)
    return "never"


def never_sync() -> str:
    \"\"\"How many paid time off (vacation) days are left.\"\"\"
    print("looking it up", flush=True)
    time.sleep(3600)  # runs in a worker thread, which Ctrl-C cannot stop
    return "never"


bot = Parent(
    name="helpdesk",
    subagents=[
        ChildAgent(name="pto", mode="direct", tools=[never_{kind}],
                   description="Answers questions about vacation days."),
    ],
)
"""


@pytest.mark.parametrize("kind", ["async", "sync"])
def test_ctrl_c_during_a_turn_cancels_it_and_ends_the_chat_with_130(
    terminals: list[Terminal], tmp_path: Path, history: Path, kind: str
) -> None:
    # A Python-defined bot in the current directory (no PYTHONPATH for it) whose tool never ends.
    (tmp_path / "slowbot.py").write_text(_SLOW_BOT.replace("{kind}", kind), encoding="utf-8")
    terminal = _chat(terminals, "slowbot:bot", history=history, cwd=tmp_path)
    terminal.type(b"how many vacation days do I have left\r")
    terminal.expect(b"looking it up")
    terminal.interrupt()
    assert terminal.exit_code() == 130
    assert b"Traceback" not in terminal.screen
