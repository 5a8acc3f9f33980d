"""The ``MockTransport`` docstring's example runs as written (a reader copies it)."""

from __future__ import annotations

import textwrap
from typing import Any

from harness.transport import MockTransport


def test_the_mock_transport_example_runs_and_its_agent_answers() -> None:
    doc = MockTransport.__doc__ or ""
    example = doc.split("required::\n", 1)[1].split("\n\n    ``messages``", 1)[0]
    namespace: dict[str, Any] = {}
    exec(textwrap.dedent(example), namespace)
    turn = namespace["turn"]
    assert [(r.agent, r.status) for r in turn.results] == [("payroll", "complete")]
    assert "Payday is Friday." in [m.text for m in turn.messages]
    assert len(namespace["transport"].calls) == 1
