"""The held-out set nobody tuned on (``unseen.jsonl``): rebuilt byte for byte from the data, big
enough, and made only of source utterances no other multi-intent set uses."""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter

import pytest

from tests.detect import build_unseen_multi_intent as build
from tests.detect.build_multi_intent import AGENT_OF
from tests.detect.multi_intent import FIXTURES, load
from tests.detect.planner_baseline import cards

needs_data = pytest.mark.skipif(
    not (build.CLINC.is_file() and (build.SGD / "sgd-dev.jsonl.gz").is_file()),
    reason="../shared/data/clinc150 or ../shared/data/sgd is not beside the repo",
)
_WORD = re.compile(r"[a-z0-9']+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _texts_of(name: str) -> set[str]:
    out: set[str] = set()
    for line in (FIXTURES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
        message = json.loads(line)
        out.add(" ".join(message["text"].split()))
        out.update(" ".join(r["text"].split()) for r in message["requests"])
    return out


@needs_data
def test_the_builder_reproduces_the_committed_files() -> None:
    data = json.loads(build.CLINC.read_text("utf-8"))
    committed = (FIXTURES / "unseen.jsonl").read_text(encoding="utf-8")
    assert build.render(build.build(data)) == committed
    assert build.render_cards() == (FIXTURES / "agents-sgd.json").read_text(encoding="utf-8")


def test_the_set_is_big_enough_with_a_share_of_three_and_four_requests() -> None:
    messages = load("unseen")
    sizes = Counter(len(m["requests"]) for m in messages)
    assert len(messages) >= 600
    assert sum(n * k for n, k in sizes.items()) >= 1500
    assert set(sizes) == {2, 3, 4}
    assert 0.2 <= sizes[3] / len(messages) <= 0.3
    assert 0.07 <= sizes[4] / len(messages) <= 0.13
    assert len({m["id"] for m in messages}) == len(messages)
    same_agent = sum(
        len({r["agent"] for r in m["requests"]}) < len(m["requests"]) for m in messages
    )
    assert 0.25 <= same_agent / len(messages) <= 0.35  # 25 % by choice, some more by chance


def test_no_source_utterance_is_used_by_another_set() -> None:
    others = {p.stem for p in FIXTURES.glob("*.jsonl")} - {"unseen"}
    assert set(build.OTHERS) <= others
    used = set().union(*(_texts_of(name) for name in build.OTHERS))
    sources = {r["source"] for m in load("unseen") for r in m["requests"]}
    assert len(sources) >= 500
    assert not sources & used
    # Sets built after this one from training text only (``ways-dev``/``ways-held``: CLINC and
    # SGD train) cannot reuse a source, but SGD's train and dev splits share a few identical
    # short turns ("I would like tickets for an event"): at most two such strings.
    later = set().union(*(_texts_of(name) for name in others - set(build.OTHERS)))
    assert len(sources & later) <= 2


@needs_data
def test_every_source_is_a_clinc_val_or_test_or_an_sgd_dev_user_turn() -> None:
    data = json.loads(build.CLINC.read_text("utf-8"))
    clinc = {build._normal(u): i for split in ("val", "test") for u, i in data[split]}
    train = {build._normal(u) for u, _ in data["train"]}
    with gzip.open(build.SGD / "sgd-dev.jsonl.gz", "rt", encoding="utf-8") as f:
        dialogues = [json.loads(line) for line in f]
    user = {
        " ".join(t["text"].split()) for d in dialogues for t in d["turns"] if t["speaker"] == "USER"
    }
    system = {
        " ".join(t["text"].split())
        for d in dialogues
        for t in d["turns"]
        if t["speaker"] == "SYSTEM"
    }
    sgd_agents = {c.name for c in cards("agents-sgd")}
    for message in load("unseen"):
        for request in message["requests"]:
            if message["id"].startswith("unseen-clinc-"):
                assert clinc[request["source"]] == request["intent"]
                assert request["source"] not in train
                assert request["agent"] == AGENT_OF[request["intent"]]
            else:
                assert message["agents"] == "agents-sgd"
                assert request["source"] in user and request["answer"] in system
                assert request["agent"] in sgd_agents


def test_every_request_is_written_in_its_message_in_order() -> None:
    for message in load("unseen"):
        text = _words(message["text"])
        at = 0
        for request in message["requests"]:
            words = _words(request["text"])
            while text[at : at + len(words)] != words:
                at += 1
                assert at < len(text), (message["id"], request["text"])
            at += len(words)


# --- figures (the fourteenth look's routing and check; see the builder) ---


@needs_data
def test_the_planner_on_the_unseen_set_holds_its_measured_figures() -> None:
    from tests.detect.planner_baseline import routing

    measured = routing("unseen")
    assert measured.requests == 1542
    # Third look (session 39's split joins, 2026-12-03 05:30 UTC, aggregates only): 1,216 -> 1,217
    # routed right, entries covering no request 135 -> 130, but two requests merged into one entry
    # 28 -> 32 (the split joins more).
    # Seventh look (session 40's split: a pronoun object, "also", a judgement of something named;
    # 06:18 UTC): 1,217 -> 1,220 routed right, entries covering no request 130 -> 123.
    # Eighth look (session 41's word pairs in the concept table; 09:01 UTC): 1,220 -> 1,246 routed
    # right (the SGD half, a new bot, 830 -> 851), messages planned in full 363 -> 382.
    # Tenth and eleventh looks (session 42's coherence scaling and split details; 11:35 and 12:00
    # UTC): 1,246 -> 1,247 routed right (the SGD half 851 -> 852), in full 382 -> 385.
    # Twelfth and thirteenth looks (session 43's split: schedules, preferences, a name before a
    # comma; s43-split's own look at 13:18 UTC and the lead's at the merged code, 13:49 UTC):
    # unchanged.
    # Seventeenth to nineteenth looks (session 45's split: a schedule, place or time fragment
    # after a request joins it; the word gate reads CamelCase and tool names; s45-plan's own look
    # 18:32 UTC, the lead's after the review's mends, 19:15 UTC): routed right 1,247 -> 1,251,
    # in no plan entry 9 -> 6, entries covering no request 115 -> 106.
    # Twentieth look (session 46's split: conditions and narrowing searches join the request
    # before; s46-plan's own look 20:48 UTC, the lead's at the merged code, 21:22 UTC): unchanged.
    # Twenty-first look (session 47's split: every lost stretch planned, a wanted schedule and a
    # reaction kept with their request; s47-plan's own look 00:29 UTC, the lead's at the merged
    # code with the review's mends, 2026-12-04 01:30 UTC): unchanged.
    # Twenty-second and twenty-third looks (sessions 48-49's split: details, reasons before ", so"
    # and "go ahead and" kept with their request; s48-plan's own look 03:09 UTC, the lead's at the
    # merged code after the reviews' mends, 06:40 and 06:55 UTC): routed right 1,251 -> 1,252,
    # planned in full 385 -> 386. Twenty-fourth look (s53-route: cards carry the authors'
    # descriptions, ids are values, described words go on; the lead's at the merged code,
    # 2026-12-04 19:52 UTC): routed right 1,252 -> 1,270, planned in full 386 -> 398.
    # Twenty-fifth look (s54-route: a request in a word of the bot's own that the concept table
    # never saw is scored as for a bot the table does not know; the lead's at the merged code,
    # 2026-12-04 22:25 UTC): routed right 1,270 -> 1,298, planned in full 398 -> 416.
    assert measured.routed_right >= 1298
    assert measured.dropped <= 6
    assert measured.merged <= 32
    assert measured.planned_in_full >= 416
    assert measured.lost == 0


@needs_data
def test_the_check_on_the_unseen_set_holds_its_measured_figures() -> None:
    from tests.detect.multi_intent import mutation

    measured = mutation("unseen")
    assert measured.full_turns == 630
    # Fourth look (session 38's refitted matcher): fewer answered turns flagged (100 -> 97) and
    # fewer drops and merges found (1,217 -> 1,202, 715 -> 707), as on the other held-out sets.
    # Fifth look (session 39's years, yes/no questions and parts of sentences, 2026-12-03 05:30
    # UTC, aggregates only): answered turns flagged 97 -> 92, drops found 1,202 -> 1,201, merges
    # found 707 -> 706.
    # Seventh look (session 40's phone numbers, kinds asked for, one yes for two questions;
    # 06:18 UTC): answered turns flagged 92 -> 89, drops found 1,201 -> 1,198, merges 706 -> 703.
    # Eighth look (session 41's segmenter keeping a statement with what it leads to, answer
    # units; 09:01 UTC): answered turns flagged 89 -> 79, drops found 1,198 -> 1,196, merges 703.
    # Tenth and eleventh looks (session 42's segmenter: "+"/"&", titles, scene-setters, look-ups;
    # 11:35 and 12:00 UTC): answered turns flagged 79 -> 81, drops found 1,196 -> 1,233, merges
    # 703 -> 730.
    # Twelfth to fourteenth looks (session 43's segmenter: run-on questions, emoticons, lone
    # greetings and closers; what a request names it asks for; 13:49 and 14:21 UTC): answered
    # turns flagged 81 -> 79, drops found 1,233 -> 1,245, merges 730 -> 737 (sure findings: 13 ->
    # 11 answered turns flagged, drops 722 -> 731).
    # Fifteenth and sixteenth looks (session 44's segmenter: "also" + a verb, a lone dash, ", and"
    # before a part with no frame, help naming nothing; the lead's looks at the merged code, 16:22
    # UTC, and after the review's mends, 16:50 UTC): answered turns flagged 79 -> 77, drops found
    # 1,245 -> 1,264, merges 737 -> 748 (sure findings: 11 answered turns, drops 731 -> 745).
    # Seventeenth to nineteenth looks (session 45's segmenter: a wish and the request acting on
    # it, lists of people, a gapped second part, run-on imperatives after a copula question;
    # the lead's looks at the merged code, 18:40 UTC, and after the review's mends, 19:03 UTC):
    # answered turns flagged 77 -> 78, drops 1,264 -> 1,262, merges 748 -> 746 (sure findings:
    # 11 answered turns, drops 745 -> 746): a little worse here, better on the other held-out
    # sets together (the floors follow the look).
    # Twentieth look (session 46's segmenter: a statement trailing a request, the bot addressed
    # anew, a date's comma, "the other one", people going with the speaker; the lead's look at
    # the merged code, 21:22 UTC): answered turns flagged 78 -> 76, drops 1,262 and merges 746
    # the same (sure findings: answered turns 11 -> 10, drops 746 -> 744).
    # Twenty-first look (session 47's segmenter and judging: wishes run on, participle lead-ins,
    # questions back without "?" held to their message's request; the lead's look at the merged
    # code with the review's mends, 2026-12-04 01:30 UTC): answered turns flagged 76 -> 72, drops
    # 1,262 -> 1,302, merges 746 -> 776 (sure findings: answered turns 10 -> 11, drops 744 -> 742).
    # The lead's looks at the merged s55 session (a question back kept to its message's request,
    # a count of what the bot found no amount; 2026-12-05 00:31 and 00:52 UTC): answered turns
    # flagged 72 -> 73, drops 1,303 -> 1,313, merges 777 -> 782 (sure findings unchanged).
    assert measured.full_flagged <= 73
    assert measured.dropped_flagged >= 1313
    assert measured.merged_flagged >= 782
