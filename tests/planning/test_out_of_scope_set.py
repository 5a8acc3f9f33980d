"""The out-of-scope development set (``tests/fixtures/out_of_scope/dev.jsonl``): what it holds, that
its builder still makes it, and that its evaluation reads the planner's own decision."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.detect.build_multi_intent import AGENT_OF, AGENTS, CLINC
from tests.planning import build_out_of_scope as build
from tests.planning.out_of_scope_eval import check_against_planner
from tests.planning.routing_eval import SGD, clinc

ROWS = [json.loads(line) for line in build.OUT.read_text("utf-8").splitlines()]
needs_data = pytest.mark.skipif(
    not (CLINC.is_file() and (SGD / "sgd-train.jsonl.gz").is_file()),
    reason="needs ../shared/data (CLINC150 and SGD train)",
)


def test_the_set_is_large_and_each_row_says_how_it_was_made() -> None:
    made = Counter(r["made"] for r in ROWS)
    assert len(ROWS) >= 2000 and made["sgd-domain"] >= 1000 and made["agent-left-out"] >= 1000
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    for row in ROWS:
        if row["made"] == "sgd-domain":
            assert row["domain"] in build.NO_AGENT_DOMAINS
            assert row["source"].startswith("sgd-train:") and row["kind"] in ("opening", "question")
        else:
            assert row["source"] == "clinc-train" and AGENT_OF[row["intent"]] == row["removed"]
    assert {r["removed"] for r in ROWS if "removed" in r} == set(AGENTS)


def test_no_domain_is_both_out_of_scope_and_covered() -> None:
    assert not build.NO_AGENT_DOMAINS & (build.COVERED | build.EITHER_WAY)
    assert not build.COVERED & build.EITHER_WAY


def test_a_turn_that_only_answers_is_no_request() -> None:
    assert build._kind({"AFFIRM"}) is None
    assert build._kind({"THANK_YOU", "GOODBYE"}) is None
    assert build._kind({"INFORM"}) is None  # "in Oakland, please": a slot value
    assert build._kind({"SELECT", "INFORM_INTENT"}) is None  # "that one; book it"
    assert build._kind({"INFORM_INTENT", "INFORM"}) == "opening"
    assert build._kind({"REQUEST"}) == "question"


def test_the_agents_own_examples_are_not_among_the_left_out_requests() -> None:
    examples = {e for a in json.loads(build.AGENTS_FILE.read_text("utf-8")) for e in a["examples"]}
    assert not examples & {r["text"] for r in ROWS}


def test_no_request_of_the_set_is_an_in_scope_row_of_the_scope_fit() -> None:
    # fit_scope fits the scope model and picks its threshold on the dev split's gold requests
    # (CLINC train, as the agent-left-out rows are): scored here as out of scope, such a text
    # would be a figure on the fit's own rows.
    fitted = {t for t, _ in clinc("dev").requests}
    fitted |= {" ".join(t.replace("’", "'").split()) for t in fitted}
    assert not fitted & {r["text"] for r in ROWS}


@needs_data
def test_every_sgd_train_domain_is_placed_once() -> None:
    import gzip

    with gzip.open(SGD / "sgd-train.jsonl.gz", "rt", encoding="utf-8") as handle:
        domains = {s.split("_")[0] for line in handle for s in json.loads(line)["services"]}
    assert domains == build.NO_AGENT_DOMAINS | build.COVERED | build.EITHER_WAY


@needs_data
def test_the_builder_makes_the_frozen_fixture() -> None:
    assert build.rows() == ROWS


@needs_data
def test_the_evaluation_reads_the_planners_own_decision() -> None:
    recorded, planned = check_against_planner(60)
    assert recorded == planned
