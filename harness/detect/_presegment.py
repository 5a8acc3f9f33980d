"""Each user message segmented into its requests once, where its sentences are already split.

The missed-request check segments every user message of a conversation
(:func:`~harness.detect.requests.segment_requests`), and the duplicate detector's analysis reads
the same messages first (:class:`~harness.detect._users._User`: their sentences' facts). Both
split the message into sentences; in a long conversation the sentence cache has long forgotten
a message by the time the check comes to it. Inside :func:`segmenting` (``detect()`` opens it
when both run), the analysis segments each user message right after reading it, where its
sentences are still cached, and the check takes those requests instead of segmenting the
message again. The requests are the same (:func:`segment_requests` is a function of the text
alone); only the sentence splitting is saved (about 5 µs of a user message's 30 µs).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from harness.detect.requests import segment_requests

__all__: list[str] = []

_KNOWN: ContextVar[dict[str, tuple[str, ...]] | None] = ContextVar(
    "harness_detect_presegmented", default=None
)
"""The requests' texts of the user messages analysed so far, by message text (None: outside
:func:`segmenting`, where the analysis segments nothing)."""


@contextlib.contextmanager
def segmenting() -> Iterator[dict[str, tuple[str, ...]]]:
    """Inside the block, the analysis of a conversation's messages
    (:func:`~harness.detect._analysis.steps`) also segments each user message, and
    :func:`request_texts` reads those requests. The mapping is the block's alone, freed with it."""
    known: dict[str, tuple[str, ...]] = {}
    token = _KNOWN.set(known)
    try:
        yield known
    finally:
        _KNOWN.reset(token)


def wanted() -> bool:
    """Whether the analysis is to segment the user messages (inside :func:`segmenting`)."""
    return _KNOWN.get() is not None


def segmented(text: str) -> tuple[str, ...]:
    """The texts of :func:`segment_requests` of a user message's ``text``."""
    return tuple(request.text for request in segment_requests(text))


def collected() -> dict[str, tuple[str, ...]] | None:
    """Where the analysis keeps the requests it made of each user message's text
    (:func:`segmented`) for the check: the block's mapping, None outside :func:`segmenting`."""
    return _KNOWN.get()


def request_texts(text: str) -> tuple[str, ...]:
    """:func:`segmented` of ``text``: the analysis's, when it made them, else made now."""
    known = _KNOWN.get()
    texts = known.get(text) if known is not None else None
    return texts if texts is not None else segmented(text)
