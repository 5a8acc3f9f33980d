"""Load recorded conversations: this SDK's JSONL, Bot Framework transcript files, and Copilot Studio
conversation transcripts as stored in Dataverse.

``load_transcript`` tells them apart by their first characters: a JSON array (``[``) is a Bot
Framework transcript (as the Emulator and ``TranscriptLoggerMiddleware`` save it), an object that
opens with ``"activities"`` is the ``content`` of a Dataverse ``ConversationTranscript`` row (a
``.csv`` file is that table exported, and ``{"value": [...]}`` the Dataverse Web API's answer, one
conversation per row), and anything else is JSONL with one message per line, unless the whole text
is one JSON object over several lines (a document, read by its keys). Several conversations can
be in one file; each becomes a :class:`~harness.detect.transcript.Transcript`. Every problem is
a :class:`~harness.exceptions.ConfigError` naming the file and the line (for a JSON array, the
activity's index and the line it starts on); a row of a table that cannot be read costs that row
only (``unread``). What a reader notices about a file it read whole (a Web API answer that is one
page of a longer result) is a :class:`ReadNote` (``notes``); :func:`settle_notes` makes the notes
of several files one per query, and none when the query's last page is among them.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harness._files import read_text
from harness.detect.activities import TraceAttribution, activity_text, parse_timestamp
from harness.detect.transcript import (
    Message,
    PlannedRequest,
    Role,
    Transcript,
    TurnRecord,
    planned_from,
)
from harness.exceptions import ConfigError
from harness.text._records import slot_maker
from instructions.contract import MODES

__all__ = [
    "MAX_TRANSCRIPT_BYTES",
    "ReadNote",
    "load_transcript",
    "parse_transcript",
    "settle_notes",
]

log = logging.getLogger(__name__)

MAX_TRANSCRIPT_BYTES = 200_000_000
"""The largest transcript file read (200 MB)."""

_MODES = MODES
_JSONL_KEYS = frozenset(
    {
        "id",
        "turn",
        "role",
        "sender",
        "mode",
        "request",
        "requests",
        "text",
        "conversation",
        "timestamp",
    }
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadNote:
    """What a reader noticed about a file it read: no error, but the report should say it (a
    Dataverse Web API answer that is one page of a longer result)."""

    file: str
    """The file read."""
    message: str
    """What the user should know, and what to do about it."""
    title: str = "note"
    """What it is, in a few words (a GitHub annotation's title)."""
    query: str | None = None
    """For a page of a Dataverse Web API answer, the query it answers (its ``@odata.context``,
    else its next link without the page token): :func:`settle_notes` groups pages by it."""
    last_page: bool = False
    """True for a Web API answer without ``@odata.nextLink`` (the last page of its query): no
    note to show, but it tells :func:`settle_notes` that the result ends among the files given."""
    undecided: int = 0
    """Borderline pairs of duplicates a ``--judge`` model could not decide in this file's
    conversation (left as the rules decided them): reports count them (JSON
    ``totals.undecided``, a JUnit ``<error>``), ``harness detect`` exits 1 and ``harness compare``
    calls a comparison with such a report incomplete."""

    def __str__(self) -> str:
        return f"{self.file}: {self.message}"


def settle_notes(notes: Iterable[ReadNote]) -> list[ReadNote]:
    """The notes to show for files read together: a Web API query's pages are one note (on its
    first page read), none when its last page (an answer without ``@odata.nextLink``) is among
    them; the last pages' own records are dropped; other notes are kept, in order. Pages are of
    one query when they have the same ``@odata.context`` (the table and its columns; two
    queries of one table with different filters look alike to it). Settling settled notes
    changes nothing."""
    notes = list(notes)
    ended = {n.query for n in notes if n.last_page}
    pages: dict[str | None, list[ReadNote]] = {}
    for note in notes:
        if note.query is not None and not note.last_page:
            pages.setdefault(note.query, []).append(note)
    settled: list[ReadNote] = []
    for note in notes:
        if note.query is None and not note.last_page:
            settled.append(note)
            continue
        if note.last_page or note.query in ended:
            continue
        group = pages[note.query]
        if note is group[0]:
            settled.append(note if len(group) == 1 else _pages_note(group))
    return settled


def load_transcript(
    path: str | Path,
    *,
    agent_modes: Mapping[str, str] | None = None,
    unread: list[ConfigError] | None = None,
    notes: list[ReadNote] | None = None,
) -> list[Transcript]:
    """Read a transcript file (JSONL or a Bot Framework JSON array) into its conversations.

    Args:
        path: the file.
        agent_modes: the mode of each sub-agent by name (from ``--config``), for the detectors
            that need it (``silent_leak``).
        unread: where a row of a table (a Dataverse export or Web API answer) that cannot be
            read goes, one error naming it each, while the other rows are read; without it, such
            a row is an error (raised), so no caller loses a conversation without knowing. A
            file none of whose rows can be read is an error either way.
        notes: where what the reader noticed goes (:class:`ReadNote`: a Web API answer with
            ``@odata.nextLink`` is one page of a longer result; one without it is recorded as
            its query's last page); give the list of several files to :func:`settle_notes`
            before showing it. Without it, a page with a next link is a warning logged (on
            standard error).

    Raises:
        ConfigError: the file cannot be read, is not JSON, or does not have the expected shape.
    """
    path = Path(path)
    text = read_text(path, max_bytes=MAX_TRANSCRIPT_BYTES)
    return parse_transcript(
        text, file=str(path), agent_modes=agent_modes, unread=unread, notes=notes
    )


def parse_transcript(
    text: str,
    *,
    file: str = "<transcript>",
    agent_modes: Mapping[str, str] | None = None,
    unread: list[ConfigError] | None = None,
    notes: list[ReadNote] | None = None,
) -> list[Transcript]:
    """Parse transcript text; ``file`` only names it in errors. See :func:`load_transcript`."""
    stripped = text.lstrip()
    if not stripped:
        raise ConfigError("the transcript is empty", file=file)
    try:
        if file.lower().endswith(".csv"):
            transcripts = _dataverse_csv(text, file, unread)
        elif stripped[0] == "[":
            transcripts = _bot_framework(text, file)
        elif _DATAVERSE.match(stripped):
            transcripts = _dataverse(text, file)
        elif stripped[0] == "{":
            document = _document(text, file)
            if document is None:
                transcripts = _jsonl(text, file)
            else:
                transcripts = _json_document(document, file, unread, notes)
        else:
            transcripts = None
    except RecursionError:
        raise ConfigError("the JSON nests too deeply to be a transcript", file=file) from None
    if transcripts is None:
        line = text[: len(text) - len(stripped)].count("\n") + 1
        if _is_json(stripped):
            raise ConfigError(f"valid JSON, but not a transcript: expected {_SHAPES}", file=file)
        header = stripped.split("\n", 1)[0].lower()
        table = "content" in header and any(d in header for d in ",;\t")
        raise ConfigError(
            "not JSON: expected a Bot Framework transcript (a JSON array of activities) or "
            "JSONL (one JSON object per line)"
            + (
                "; this looks like a CSV table, which is read from a file ending in .csv"
                if table
                else ""
            ),
            file=file,
            line=line,
        )
    for transcript in transcripts:
        if agent_modes:
            transcript.agent_modes.update(agent_modes)
    return transcripts


_SHAPES = (
    "a Bot Framework transcript (a JSON array of activities), JSONL (one message object per "
    'line), a ConversationTranscript row\'s content ({"activities": [...]}) or the Dataverse Web '
    'API\'s answer ({"value": [{"content": "...", "name": "..."}]})'
)
"""The JSON shapes :func:`parse_transcript` reads, for the error that names none of them."""
_DECODER = json.JSONDecoder()
_NOT_SPACE = re.compile(r"\S")


def _document(text: str, file: str) -> dict[str, Any] | None:
    """The JSON object the whole text is, when it is a document rather than JSONL: an object over
    several lines (pretty-printed), or a one-line object with none of JSONL's keys; else None
    (only the first line is parsed: JSONL's cost stays the same).

    Raises:
        ConfigError: an object over several lines that is not valid JSON (where it breaks, not
            its first line).
    """
    start = len(text) - len(text.lstrip())
    first_line = text.count("\n", 0, start) + 1
    try:
        document, end = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as exc:
        if exc.lineno > first_line:
            raise ConfigError(f"not JSON: {exc.msg}", file=file, line=exc.lineno) from exc
        return None  # its first line is not JSON: the JSONL reader says so
    if _NOT_SPACE.search(text, end) is not None:
        return None  # more follows: one object per line
    if text.find("\n", start, end) == -1 and not _JSONL_KEYS.isdisjoint(document):
        return None  # a JSONL file of one message
    return document if isinstance(document, dict) else None


def _json_document(
    document: dict[str, Any],
    file: str,
    unread: list[ConfigError] | None,
    notes: list[ReadNote] | None = None,
) -> list[Transcript]:
    """A JSON object that is not JSONL: a ``ConversationTranscript`` row's content whose
    ``activities`` is not its first key, or the Dataverse Web API's answer for the table,
    ``{"value": [{"content": "...", "name": "..."}]}`` (a conversation per row, as in the CSV
    export; with ``@odata.nextLink``, one page of a longer result: :func:`_page_note`)."""
    if isinstance(document.get("activities"), list):
        return _dataverse_document(document, file)
    rows = document.get("value")
    if isinstance(rows, list) and any(isinstance(r, dict) and "content" in r for r in rows):
        # Before the rows are read: a page none of whose rows can be read keeps its note.
        note = _page_note(document, file, len(rows))
        if notes is not None:
            notes.append(note)
        elif not note.last_page:
            log.warning("%s", note)
        return _dataverse_rows(
            (
                (
                    None,
                    f"value[{index}].content",
                    _row_name(row, ("name", "conversationtranscriptid")),
                    row.get("content") if isinstance(row, dict) else row,
                )
                for index, row in enumerate(rows)
            ),
            file,
            unread,
            table="the answer's",
        )
    keys = ", ".join(list(document)[:5]) + (", ..." if len(document) > 5 else "")
    raise ConfigError(
        f"valid JSON, but not a transcript: expected {_SHAPES}; this is an object with the "
        f"keys {keys or '(none)'}",
        file=file,
    )


_NEXT_LINK = "@odata.nextLink"
"""The key of a Dataverse Web API answer that links to the next page of its result."""


_PAGE_TOKEN = re.compile(r"[?&]\$skiptoken=[^&]*")
"""The part of a next link that names the page, not the query."""
_GET_ALL = (
    f"Save each page (GET the {_NEXT_LINK} URL until an answer has none) and give them all, or "
    "export the whole table from Power Apps (Tables > ConversationTranscript > Export > Export "
    "data, a .csv file)"
)


def _page_note(document: Mapping[str, Any], file: str, rows: int) -> ReadNote:
    """The record of a Web API answer's page: with ``@odata.nextLink``, the note that the table
    has more rows than the files given hold (Dataverse pages a long result: 5,000 rows at most per
    page, fewer with a ``Prefer: odata.maxpagesize`` header); without it, its query's last page.
    """
    link = document.get(_NEXT_LINK)
    context = document.get("@odata.context")
    query = context if isinstance(context, str) and context else None
    if not (isinstance(link, str) and link):
        return ReadNote(file=file, message="", title="last page", query=query, last_page=True)
    if query is None:
        query = _PAGE_TOKEN.sub("", link)
    return ReadNote(
        file=file,
        message=(
            f"one page of the Dataverse Web API's answer ({rows} row{'' if rows == 1 else 's'}):"
            f" it carries {_NEXT_LINK}, so the table has more rows, in no file given. {_GET_ALL}"
        ),
        title="one page of a longer result",
        query=query,
    )


def _pages_note(pages: Sequence[ReadNote]) -> ReadNote:
    """One note for several pages of a query, none of them its last."""
    others = ", ".join(p.file for p in pages[1:])
    return dataclasses.replace(
        pages[0],
        message=(
            f"one of {len(pages)} pages of the Dataverse Web API's answer given (with {others}), "
            f"each carrying {_NEXT_LINK} and none the last, so the table has more rows, in no "
            f"file given. {_GET_ALL}"
        ),
    )


def _row_name(row: object, keys: tuple[str, ...]) -> str:
    """A table row's name: the first of ``keys`` it has, as text ("" when none)."""
    if not isinstance(row, Mapping):
        return ""
    return next((str(row[k]).strip() for k in keys if row.get(k) not in (None, "")), "")


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


# --- JSONL ------------------------------------------------------------------------------------


def _jsonl(text: str, file: str) -> list[Transcript]:
    conversations: dict[str, Transcript] = {}
    seen: dict[str, int] = {}
    last_turn: dict[str, int] = {}
    user_turns: dict[str, int] = {}  # each conversation's turn of its last user message
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = _json_line(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"not JSON: {exc.msg}", file=file, line=number) from exc
        if not isinstance(record, dict):
            raise ConfigError(
                f"expected a JSON object per line, got {type(record).__name__}",
                file=file,
                line=number,
            )
        message, plan, conversation = _jsonl_message(record, file, number)
        transcript = conversations.get(conversation)
        if transcript is None:
            transcript = conversations[conversation] = Transcript(conversation=conversation)
        key = f"{conversation}\x00{message.id}"
        if key in seen:
            raise ConfigError(
                f"duplicate message id {message.id!r} (first on line {seen[key]})",
                file=file,
                line=number,
                field="id",
            )
        seen[key] = number
        previous = last_turn.get(conversation, 0)
        if message.turn < previous:
            raise ConfigError(
                f"turn {message.turn} comes after turn {previous}: messages must be in order",
                file=file,
                line=number,
                field="turn",
            )
        if message.role == "user" and message.turn == previous and transcript.messages:
            if user_turns.get(conversation) != message.turn:  # bot messages first: a greeting
                greeting = " (a greeting before the first user message)" if previous == 1 else ""
                where = (
                    f"it belong to turn {message.turn - 1}{greeting}"
                    if message.turn >= 1
                    else "it are turn 0 (a greeting) and user messages count turns from 1"
                )
                raise ConfigError(
                    f"the user message of turn {message.turn} comes after bot messages of the "
                    f"same turn: each user message starts its turn, so the bot messages before "
                    f"{where}",
                    file=file,
                    line=number,
                    field="turn",
                )
            raise ConfigError(
                f"a second user message in turn {message.turn}: each user message starts a turn",
                file=file,
                line=number,
                field="turn",
            )
        if message.role == "user":
            user_turns[conversation] = message.turn
        last_turn[conversation] = message.turn
        transcript.append(message)
        if plan is not None:
            transcript.turns.append(TurnRecord(turn=message.turn, plan=plan))
    if not conversations:
        raise ConfigError("the transcript has no messages", file=file)
    return list(conversations.values())


_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
"""The decoder's scanner (``raw_decode`` without its Python frame): the value at an offset and
where it ends, ``StopIteration`` when none starts there."""


def _json_line(line: str) -> Any:
    """``json.loads(line)``, skipping its white-space scans for the usual ``{...}`` line."""
    if line[:1] == "{" and line[-1:] == "}":
        try:
            record, end = _SCAN(line, 0)
        except (StopIteration, json.JSONDecodeError):
            pass  # json.loads raises the error below
        else:
            if end == len(line):
                return record
    return json.loads(line)


_PLAIN_KEYS = frozenset({"id", "turn", "role", "sender", "text", "conversation"})
"""The keys of the usual record, which :func:`_jsonl_message` checks in a few steps."""


def _jsonl_message(
    record: dict[str, Any], file: str, line: int
) -> tuple[Message, tuple[PlannedRequest, ...] | None, str]:
    """One line's message, its turn's plan and its conversation: :func:`_checked_message`, whose
    checks a record of the usual keys with values of the usual types passes in a few steps."""
    if _PLAIN_KEYS.issuperset(record):
        raw_id = record.get("id")
        turn = record.get("turn")
        role = record.get("role")
        text = record.get("text")
        sender = record.get("sender", "user" if role == "user" else None)
        conversation = record.get("conversation", "conversation")
        if (
            type(raw_id) is str
            and raw_id
            and type(turn) is int
            and turn >= 0
            and (role == "user" or role == "bot")
            and type(text) is str
            and type(sender) is str
            and sender
            and type(conversation) is str
        ):
            return _plain_message(raw_id, turn, role, sender, text), None, conversation
    return _checked_message(record, file, line)


@slot_maker(Message)
def _plain_message(id: str, turn: int, role: Role, sender: str, text: str) -> Message:
    """``Message(id=id, turn=turn, role=role, sender=sender, text=text)``, the same object,
    each field set through its slot rather than by the generated ``__init__`` (whose keyword
    handling and attribute look-ups cost more than the line's JSON: 100,000 lines, about 0.2 s
    of CPU before the analysis can start against 0.1 s); the later fields are their defaults
    (:func:`~harness.text._records.slot_maker`)."""
    return Message(id=id, turn=turn, role=role, sender=sender, text=text)


def _checked_message(
    record: dict[str, Any], file: str, line: int
) -> tuple[Message, tuple[PlannedRequest, ...] | None, str]:
    def fail(message: str, field: str | None = None) -> ConfigError:
        return ConfigError(message, file=file, line=line, field=field)

    if not _JSONL_KEYS.issuperset(record):
        unknown = sorted(set(record) - _JSONL_KEYS)
        raise fail(f"unknown key {unknown[0]!r} (expected {', '.join(sorted(_JSONL_KEYS))})")
    for key in ("id", "turn", "role", "text"):
        if key not in record:
            raise fail("missing", key)
    raw_id = record["id"]
    if not isinstance(raw_id, str | int) or isinstance(raw_id, bool) or str(raw_id) == "":
        raise fail("must be a non-empty string or an integer", "id")
    turn = record["turn"]
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
        raise fail(
            "must be a whole number, 1 or more (0 for messages before the first user one)", "turn"
        )
    role = record["role"]
    if role not in ("user", "bot"):
        raise fail(f"must be 'user' or 'bot', not {role!r}", "role")
    text = record["text"]
    if not isinstance(text, str):
        raise fail("must be a string", "text")
    sender = record.get("sender", "user" if role == "user" else None)
    if not isinstance(sender, str) or not sender:
        raise fail("missing or not a string", "sender")
    mode = record.get("mode")
    if mode is not None and mode not in _MODES:
        raise fail(f"must be one of {', '.join(_MODES)}, not {mode!r}", "mode")
    request = record.get("request")
    if request is not None and not isinstance(request, str):
        raise fail("must be a string", "request")
    conversation = record.get("conversation", "conversation")
    if not isinstance(conversation, str | int) or isinstance(conversation, bool):
        raise fail("must be a string", "conversation")
    plan: tuple[PlannedRequest, ...] | None = None
    if "requests" in record:
        if role != "user":
            raise fail("only a user message carries the turn's requests", "requests")
        plan = _plan(record["requests"], fail)
    message = Message(
        id=str(raw_id),
        turn=turn,
        role=role,
        sender=sender,
        text=text,
        mode=mode,
        request=request,
        timestamp=parse_timestamp(record.get("timestamp")),
    )
    return message, plan, str(conversation)


def _plan(raw: Any, fail: Any) -> tuple[PlannedRequest, ...]:
    """A user line's ``requests``: ``[{"agent", "request"}]``, each with the user's answers
    beside it when it has any (``"answers": [{"question", "value"}]``, as ``to_jsonl`` writes)."""
    if not isinstance(raw, list):
        raise fail("must be a list of {agent, request}", "requests")
    plan = []
    for index, entry in enumerate(raw):
        where = f"requests[{index}]"
        if (
            not isinstance(entry, dict)
            or not {"agent", "request"} <= set(entry) <= {"agent", "request", "answers"}
            or not all(isinstance(entry[k], str) and entry[k] for k in ("agent", "request"))
        ):
            raise fail("must be an object with the strings agent and request", where)
        answers = entry.get("answers", [])
        if not isinstance(answers, list) or not all(_an_answer(a) for a in answers):
            raise fail(
                'must be a list of {"question", "value"} with a string value', f"{where}.answers"
            )
        plan.append(planned_from(entry))
    return tuple(plan)


def _an_answer(answer: Any) -> bool:
    """One of a plan entry's ``answers``: a non-empty string ``value`` and, when given, a string
    (or null) ``question``, nothing else."""
    return (
        isinstance(answer, dict)
        and set(answer) <= {"question", "value"}
        and isinstance(answer.get("value"), str)
        and bool(answer["value"])
        and isinstance(answer.get("question") or "", str)
    )


# --- Bot Framework ----------------------------------------------------------------------------


def _activity_lines(text: str) -> list[int]:
    """The line each element of a top-level JSON array starts on (used only for errors)."""
    decoder = json.JSONDecoder()
    lines: list[int] = []
    index = text.index("[") + 1
    length = len(text)
    while index < length:
        while index < length and text[index] in " \t\r\n,":
            index += 1
        if index >= length or text[index] == "]":
            break
        lines.append(text.count("\n", 0, index) + 1)
        try:
            _, index = decoder.raw_decode(text, index)
        except json.JSONDecodeError:
            break
    return lines


def _bot_framework(text: str, file: str) -> list[Transcript]:
    try:
        activities = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not JSON: {exc.msg}", file=file, line=exc.lineno) from exc
    if not isinstance(activities, list):  # pragma: no cover - starts with "["
        raise ConfigError("expected a JSON array of activities", file=file)
    lines: list[int] | None = None

    def fail(index: int, message: str, field: str | None = None) -> ConfigError:
        nonlocal lines
        if lines is None:
            lines = _activity_lines(text)
        line = lines[index] if index < len(lines) else None
        where = f"activity {index}" + (f".{field}" if field else "")
        return ConfigError(message, file=file, line=line, field=where)

    all_ids: set[str] = set()
    for index, activity in enumerate(activities):
        if not isinstance(activity, dict):
            raise fail(index, f"expected an activity object, got {type(activity).__name__}")
        activity_id = activity.get("id")
        if activity_id is not None:
            if not isinstance(activity_id, str | int) or isinstance(activity_id, bool):
                raise fail(index, "must be a string", "id")
            all_ids.add(str(activity_id))
        if not isinstance(activity.get("type", "message"), str):
            raise fail(index, "must be a string", "type")

    conversations: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for index, activity in enumerate(activities):
        if activity.get("type") != "message":
            continue
        conv = activity.get("conversation")
        if conv is not None and not isinstance(conv, dict):
            raise fail(index, "must be an object with an id", "conversation")
        conv_id = str((conv or {}).get("id") or "conversation")
        conversations.setdefault(conv_id, []).append((index, activity))
    if not conversations:
        raise ConfigError("the transcript has no message activities", file=file)

    transcripts = []
    textless: list[str] = []
    for conv_id, items in conversations.items():
        transcript = Transcript(conversation=conv_id)
        user_id = _user_id(items, file=file, conversation=conv_id)
        turn = 0
        seen: set[str] = set()
        for index, activity in items:
            sender_obj = activity.get("from")
            if not isinstance(sender_obj, dict):
                raise fail(index, "missing: every message activity needs a sender", "from")
            role = _role(sender_obj, user_id)
            raw_text = activity.get("text", "")
            if raw_text is None:
                raw_text = ""
            if not isinstance(raw_text, str):
                raise fail(index, "must be a string", "text")
            if activity.get("attachments"):
                raw_text = activity_text(activity) or raw_text
            activity_id = str(activity.get("id") or f"activity-{index}")
            if not raw_text.strip():
                several = len(conversations) > 1
                textless.append(f"{activity_id} in {conv_id}" if several else activity_id)
            if activity_id in seen:
                raise fail(index, f"duplicate activity id {activity_id!r}", "id")
            seen.add(activity_id)
            reply_to = activity.get("replyToId")
            if reply_to is not None and str(reply_to) not in all_ids:
                raise fail(
                    index, f"replyToId {reply_to!r} names no activity in the file", "replyToId"
                )
            channel = activity.get("channelData")
            channel = channel if isinstance(channel, dict) else {}
            if role == "user":
                turn += 1
            name = sender_obj.get("name") or sender_obj.get("id") or role
            sender = channel.get("sender") if isinstance(channel.get("sender"), str) else None
            mode = channel.get("mode")
            if mode is not None and mode not in _MODES:
                raise fail(index, f"must be one of {', '.join(_MODES)}", "channelData.mode")
            request = channel.get("request")
            transcript.append(
                Message(
                    id=activity_id,
                    turn=turn,
                    role=role,
                    sender=str(sender or name) if role == "bot" else str(name),
                    text=raw_text,
                    mode=mode if role == "bot" else None,
                    request=request if isinstance(request, str) and role == "bot" else None,
                    timestamp=parse_timestamp(activity.get("timestamp")),
                )
            )
        transcripts.append(transcript)
    _warn_textless(file, textless)
    return transcripts


def _warn_textless(file: str, ids: list[str]) -> None:
    """Say on standard error that message activities with nothing to read were not checked (an
    image alone, a card's submitted values): a file's replies are never dropped without a word."""
    if not ids:
        return
    shown = "; ".join(ids[:5]) + ("; ..." if len(ids) > 5 else "")
    log.warning(
        "%s: %d message activit%s neither text nor a card with text, so nothing in %s is "
        "checked (%s)",
        file,
        len(ids),
        "y has" if len(ids) == 1 else "ies have",
        "it" if len(ids) == 1 else "them",
        shown,
    )


def _user_id(
    items: list[tuple[int, dict[str, Any]]], *, file: str, conversation: str
) -> str | None:
    """Who the user is when a message has no ``from.role``: the sender of a message that another
    sender's message replies to (``replyToId``: a bot replies to the user's activity), else the
    conversation's first sender, with a warning when no message has a role at all (a bot that
    greets first would be read as the user)."""
    senders = {
        str(activity.get("id")): str(sender["id"])
        for _, activity in items
        if isinstance(sender := activity.get("from"), dict) and sender.get("id") is not None
    }
    for _, activity in items:
        sender = activity.get("from")
        target = senders.get(str(activity.get("replyToId")))
        if isinstance(sender, dict) and target is not None and target != str(sender.get("id")):
            return target
    first = next(
        (
            str(sender["id"])
            for _, activity in items
            if isinstance(sender := activity.get("from"), dict) and sender.get("id") is not None
        ),
        None,
    )
    roles = any(
        isinstance(activity.get("from"), dict) and activity["from"].get("role")
        for _, activity in items
    )
    if first is not None and not roles:
        log.warning(
            "%s: conversation %s: no message has from.role; its first sender %r is taken to be "
            "the user (give from.role 'user' or 'bot' if that is wrong)",
            file,
            conversation,
            first,
        )
    return first


def _role(sender: dict[str, Any], user_id: str | None) -> Any:
    role = sender.get("role")
    if role == "user":
        return "user"
    if isinstance(role, str) and role:
        return "bot"
    return "user" if user_id is not None and str(sender.get("id")) == user_id else "bot"


# --- Copilot Studio transcripts (Dataverse) ---------------------------------------------------

_DATAVERSE = re.compile(r'\{\s*"activities"\s*:')


def _dataverse(
    text: str, file: str, *, allow_empty: bool = False, textless: list[str] | None = None
) -> list[Transcript]:
    """The ``content`` of a ``ConversationTranscript`` row: ``{"activities": [...]}``.

    Microsoft documents its activities' keys ("Download conversation transcripts in Power Apps",
    *Content field*): ``from.role`` is 0 for the bot and 1 for the user, ``timestamp`` is in
    seconds since the epoch, ``from.id`` is hashed (so no names). Bot messages are attributed to
    child and connected agents from the orchestrator's plan events (``TraceAttribution``), to
    ``bot`` otherwise. Only ``message`` activities with text (or a card with text:
    :func:`~harness.detect.activities.activity_text`) count; the ids of the others go to
    ``textless`` (a warning when it is not given). A conversation with none is an error, or with
    ``allow_empty`` (a row of a whole exported table) no transcript.
    """
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not JSON: {exc.msg}", file=file, line=exc.lineno) from exc
    return _dataverse_document(document, file, allow_empty=allow_empty, textless=textless)


def _dataverse_document(
    document: Any, file: str, *, allow_empty: bool = False, textless: list[str] | None = None
) -> list[Transcript]:
    """:func:`_dataverse` of the parsed ``content``."""
    activities = document.get("activities") if isinstance(document, dict) else None
    if not isinstance(activities, list):
        raise ConfigError('expected {"activities": [...]}', file=file, field="activities")
    ordered = list(enumerate(activities))
    stamps: list[float] = [
        float(a["timestamp"])
        for a in activities
        if isinstance(a, dict)
        and isinstance(a.get("timestamp"), int | float)
        and not isinstance(a["timestamp"], bool)
    ]
    if len(stamps) == len(activities):  # every activity has one: a stable sort keeps ties' order
        ordered.sort(key=lambda item: stamps[item[0]])
    transcript: Transcript | None = None
    attribution = TraceAttribution()
    seen: set[str] = set()
    unread: list[str] = [] if textless is None else textless
    turn = 0
    for index, activity in ordered:
        if not isinstance(activity, dict):
            raise ConfigError(
                f"expected an activity object, got {type(activity).__name__}",
                file=file,
                field=f"activities[{index}]",
            )
        attribution.observe(activity)
        if activity.get("type") != "message":
            continue
        raw_text = activity.get("text")
        raw_text = raw_text if isinstance(raw_text, str) else ""
        if activity.get("attachments"):
            raw_text = activity_text(activity) or raw_text
        if not raw_text:
            unread.append(str(activity.get("id") or f"activity-{index}"))
            continue
        if transcript is None:
            conversation = activity.get("conversation")
            name = conversation.get("id") if isinstance(conversation, dict) else None
            transcript = Transcript(conversation=str(name or "conversation"))
        sender = activity.get("from")
        role = sender.get("role") if isinstance(sender, dict) else None
        is_user = role in (1, "1", "user")
        if is_user:
            turn += 1
        message_id = str(activity.get("id") or f"activity-{index}")
        if message_id in seen:
            message_id = f"{message_id}-{index}"
        seen.add(message_id)
        transcript.append(
            Message(
                id=message_id,
                turn=turn,
                role="user" if is_user else "bot",
                sender="user" if is_user else attribution.sender or "bot",
                text=raw_text,
                timestamp=_epoch_time(activity.get("timestamp")),
            )
        )
    if textless is None:
        _warn_textless(file, unread)
    if transcript is None:
        if allow_empty:
            return []
        raise ConfigError("the transcript has no message activities with text", file=file)
    return [transcript]


def _csv_delimiter(text: str) -> str:
    """The separator of a table export whose header names a Content column: a comma, or the
    semicolon Excel writes in locales whose decimal mark is a comma, or a tab."""
    header = text.split("\n", 1)[0]
    for delimiter in (",", ";", "\t"):
        if "content" in {c.strip().strip('"').strip().lower() for c in header.split(delimiter)}:
            return delimiter
    return ","


def _dataverse_csv(text: str, file: str, unread: list[ConfigError] | None) -> list[Transcript]:
    """The ``ConversationTranscript`` table exported from Power Apps: a ``Content`` column with
    each conversation's JSON (the row's ``Name`` or ``ConversationTranscript`` id names it)."""
    import csv
    import io

    # A long conversation's JSON is larger than the csv module's default field limit (128 kB).
    csv.field_size_limit(max(csv.field_size_limit(), 1 << 28))
    reader = csv.DictReader(io.StringIO(text), delimiter=_csv_delimiter(text))
    columns = {name.strip().lower(): name for name in reader.fieldnames or ()}
    if "content" not in columns:
        header = text.split("\n", 1)[0].strip()[:200]
        raise ConfigError(
            "a CSV transcript needs a Content column (the ConversationTranscript table exported "
            f"from Power Apps, separated by commas, semicolons or tabs); its header is {header!r}",
            file=file,
            line=1,
        )
    named = tuple(columns[c] for c in ("name", "conversationtranscript") if c in columns)[:1]
    rows = (
        (reader.line_num, None, _row_name(row, named), row.get(columns["content"]))
        for row in reader
    )
    try:
        return _dataverse_rows(rows, file, unread, table="the CSV's")
    except csv.Error as exc:
        raise ConfigError(f"not CSV: {exc}", file=file, line=reader.line_num) from exc


def _dataverse_rows(
    rows: Iterable[tuple[int | None, str | None, str, object]],
    file: str,
    unread: list[ConfigError] | None,
    *,
    table: str,
) -> list[Transcript]:
    """The conversations of a ``ConversationTranscript`` table's rows, each ``(line, field,
    name, content)``: one per row with a message (the row's name, else ``row N``). A row with no
    content, or no message with text (a session opened and left), is skipped. A row that cannot
    be read goes to ``unread``, so the others are still checked; without ``unread``, or when no
    row can be read, the first such error is raised. The warning about message activities with
    nothing to read names each one's conversation (as the report does: the row's name, else
    ``row N`` counted from the first row under the header) and where its row is, as the read
    errors do (a CSV file's line, the Web API's ``value[N]``), as a table holds many."""
    transcripts: list[Transcript] = []
    textless: list[str] = []
    errors: list[ConfigError] = []  # each as raised, the row's line and field added
    names: list[str] = []  # the conversation of each
    count = 0
    for count, (line, field, name, content) in enumerate(rows, start=1):
        if content is None or (isinstance(content, str) and not content.strip()):
            continue
        unread_here: list[str] = []
        try:
            if isinstance(content, str):
                read = _dataverse(content, file, allow_empty=True, textless=unread_here)
            else:
                read = _dataverse_document(content, file, allow_empty=True, textless=unread_here)
        except ConfigError as exc:
            where = ".".join(f for f in (field, exc.field) if f) or None
            errors.append(ConfigError(exc.message, file=file, line=line, field=where))
            names.append(name or f"row {count}")
            continue
        # The conversation as the report names it, and where the read errors place its row: its
        # line in a CSV file, its item of the Web API's ``value`` array.
        at = f"line {line}" if line is not None else (field or "").removesuffix(".content")
        where = f"conversation {name or f'row {count}'}" + (f" ({at})" if at else "")
        textless += [f"{activity} in {where}" for activity in unread_here]
        if not read:  # a session opened and left: only events, no message with text
            continue
        (transcript,) = read
        transcript.conversation = name or f"row {count}"
        transcripts.append(transcript)
    _warn_textless(file, textless)
    if not transcripts and errors:
        first = errors[0]
        if count > 1:
            first.message += f" (none of {table} {count} rows can be read: {len(errors)} cannot)"
        raise ConfigError(first.message, file=file, line=first.line, field=first.field)
    if not transcripts:
        raise ConfigError(
            f"none of {table} {count} row(s) holds a conversation with a message", file=file
        )
    if errors and unread is None:  # the caller cannot report such a row: the file is an error
        raise errors[0]
    unread_rows = [
        ConfigError(
            f"{error.message}; conversation {name} is not checked (the other rows are)",
            file=file,
            line=error.line,
            field=error.field,
        )
        for error, name in zip(errors, names, strict=True)
    ]
    if unread is not None:
        unread.extend(unread_rows)
    return transcripts


def _epoch_time(raw: Any) -> datetime | None:
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        return datetime.fromtimestamp(raw, UTC)
    return parse_timestamp(raw)
