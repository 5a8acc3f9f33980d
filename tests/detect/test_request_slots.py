"""The check's requests made through their slots are the declared requests they stand for."""

from __future__ import annotations

from harness.detect.missed import DeclaredRequest, _request


def test_a_request_made_through_its_slots_is_the_declared_request() -> None:
    made, declared = _request("when is payday"), DeclaredRequest(text="when is payday")
    assert made == declared and hash(made) == hash(declared) and repr(made) == repr(declared)
    # a field added to DeclaredRequest must be set by _request too (yes_or_no and asks, not
    # compared, are checked on their own: equality would not see them)
    assert [f for f in DeclaredRequest.__dataclass_fields__] == [
        "text",
        "agent",
        "words",
        "yes_or_no",
        "asks",
    ]
    assert made.yes_or_no is False and made.asks is False
