"""The duplicate detector's shortcuts change how much it compares, never what it finds.

- The claim-pair pre-filter (``restate._related``): two claims that share no content word, fact or
  text are skipped; a property test over random claims checks that the rules would have kept
  none of them (no match, no template filled twice, nothing borderline).
- Work, counted in claim pairs the rules compare (not timed): it grows about linearly with the
  conversation, and the pre-filter skips most pairs.
- Worker processes (``harness detect --jobs``): a conversation compared in slices by forked
  workers gives the same findings as one process.
- The index's choice of candidates (the highest counts) is ``Counter.most_common``'s, and its
  one-pass count gives the candidates a count key by key gives (random conversations); a message
  before the previous turn linked by one rare fact or two uncommon words is a candidate only when
  every pair is wanted (fitting, a judge).
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.cli.detect import detect_command
from harness.detect import DetectorConfig, _candidates, detect, duplicates, restate
from harness.detect.duplicates import thresholds, worker_processes
from harness.detect.transcript import Message
from harness.text import analyse
from tests.simulate.test_perf_equivalence import generated

# Words and facts that recur, so random claims often share some and sometimes only fuzzily
# (a masked id, a name inside a longer name, a code whose digits are a number).
_PIECES = [
    "your",
    "order",
    "ticket",
    "refund",
    "balance",
    "is",
    "was",
    "not",
    "approved",
    "pending",
    "shipped",
    "today",
    "on Friday",
    "March 3",
    "at 2:05 pm",
    "$42.10",
    "$10",
    "12 days",
    "12",
    "5521",
    "T-5521",
    "INC0012345",
    "…0012345",
    "the Gold Card",
    "the Acme Gold Card",
    "Hall B",
    "lisinopril",
    "metformin",
    "copay",
    "flight AA123",
    "on time",
    "delayed",
    "please",
    "confirm",
    "and",
    "anything else?",
]
_SENTENCE = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=9).map(" ".join)
_MESSAGE = st.lists(_SENTENCE, min_size=1, max_size=4).map(lambda s: ". ".join(s) + ".")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_MESSAGE, _MESSAGE)
def test_claim_pairs_the_prefilter_skips_are_never_kept_by_the_rules(
    first: str, second: str
) -> None:
    earlier, later = analyse(first), analyse(second)
    limits = thresholds(DetectorConfig())
    for a in earlier.claims:
        for b in later.claims:
            if restate._related(a, b):
                continue
            assert restate.claim_match(a, b, earlier, later, limits) is None
            assert not restate._same_template(a, b, earlier, later)
            # borderline()'s test of a claim pair:
            assert not restate._shared(a.strong, b.strong)
            assert restate._dice(a.words, b.words) < 0.45


def test_a_config_with_no_wording_threshold_compares_every_claim_pair() -> None:
    """With ``containment_threshold`` 0, claims sharing nothing can match on wording alone, so
    the pre-filter must stand aside."""
    config = DetectorConfig(containment_threshold=0.0)
    earlier = analyse("Your parcel left the depot this morning. The weather stays lovely.")
    later = analyse("The weather stays lovely. Sunday brings heavy rain and wind.")
    a, b = earlier.claims[0], later.claims[-1]
    assert not restate._related(a, b)
    assert restate.claim_match(a, b, earlier, later, thresholds(config)) is not None
    every = len(earlier.claims) * len(later.claims)
    with _counted() as counts:
        restate.compare(earlier, later, thresholds(config))
    assert counts["compared"] == every
    with _counted() as counts:
        restate.compare(earlier, later, thresholds(DetectorConfig()))
    assert 0 < counts["compared"] < every


@contextmanager
def _counted() -> Iterator[dict[str, int]]:
    """Counts the claim pairs the rules compare, and all claim pairs the loops meet."""
    counts = {"compared": 0, "met": 0}
    related, match = restate._related, restate.claim_match

    def counting_related(a: object, b: object) -> bool:
        counts["met"] += 1
        return related(a, b)  # type: ignore[arg-type]

    def counting_match(*args: object) -> object:
        counts["compared"] += 1
        return match(*args)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(restate, "_related", counting_related)
        patch.setattr(restate, "claim_match", counting_match)
        yield counts


def _work(turns: int) -> dict[str, int]:
    with _counted() as counts:
        detect(generated(11, turns, modes_known=True))
    return counts


def test_comparison_work_grows_about_linearly_with_the_conversation() -> None:
    small, large = _work(200), _work(800)
    assert small["compared"] > 0
    # Four times the turns: at most about four times the work (a quadratic detector would do
    # sixteen). Measured: 2,343 and 7,427 claim pairs compared.
    assert large["compared"] <= 5 * small["compared"]
    assert large["met"] <= 5 * small["met"]


def test_the_prefilter_skips_most_claim_pairs() -> None:
    counts = _work(200)
    assert counts["compared"] * 2 < counts["met"]


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="workers are forked"
)
def test_worker_processes_find_what_one_process_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(duplicates, "PARALLEL_MESSAGES", 20)
    transcripts = [generated(seed, 60, modes_known=True) for seed in (3, 4)]
    alone = [detect(t) for t in transcripts]
    forks: list[int] = []
    real = duplicates._pairs_in_processes

    def spying(run: object, jobs: int, **options: object) -> object:
        forks.append(jobs)
        return real(run, jobs, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(duplicates, "_pairs_in_processes", spying)
    with worker_processes(2):
        together = [detect(t) for t in transcripts]
    assert forks == [2, 2]  # the workers did run
    assert together == alone
    assert any(f.kind == "duplicate" for found in alone for f in found)


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="workers are forked"
)
def test_harness_detect_jobs_gives_the_same_report(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setattr(duplicates, "PARALLEL_MESSAGES", 20)
    path = tmp_path / "long.jsonl"  # type: ignore[operator]
    generated(5, 60, modes_known=True).write_jsonl(path)
    runner = CliRunner()
    reports = [
        runner.invoke(detect_command, [str(path), "--format", "json", "--jobs", jobs])
        for jobs in ("1", "2")
    ]
    assert [r.exit_code for r in reports] == [1, 1]
    assert reports[0].output == reports[1].output


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 150), st.sampled_from([1, 1, 1, 2, 3, 100]))))
def test_candidates_are_those_counter_most_common_picks(counted: list[tuple[int, int]]) -> None:
    """The index keeps the positions counted at least twice, the highest counts first and ties
    in the counter's order, as ``Counter.most_common`` picks them (without its heap)."""
    counts: Counter[int] = Counter()
    for position, score in counted:
        counts[position] += score
    limit = _candidates._MAX_CANDIDATES
    if len(counts) > limit:
        expected = [p for p, score in counts.most_common(limit) if score >= 2]
    else:
        expected = [p for p, score in counts.items() if score >= 2]
    assert _candidates._most_similar(counts) == sorted(expected)


def _counted_key_by_key(
    index: _candidates._Index, entry: _candidates.Entry, *, weak: bool
) -> list[int]:
    """The index's candidates counted as it counted them before (one ``Counter.update`` per key):
    the reference its one-pass count must equal, ties and order included. Without ``weak``, a
    message before the previous turn needs a count of :data:`~._candidates._LINKED`."""
    counts: Counter[int] = Counter()
    text = entry.text
    for key in sorted(text.strong):
        posting = index.postings.get(key)
        if posting is None:
            continue
        if len(posting) <= _candidates._RARE:
            counts.update(posting)
            counts.update(posting)
        else:
            counts.update(posting[-_candidates._COMMON_RECENT :])
    for key in sorted(text.words):
        posting = index.postings.get(key)
        if posting is not None and len(posting) <= _candidates._COMMON_POSTING:
            counts.update(posting)
    for position in index.exact.get(text.norm, ())[-_candidates._EXACT_RECENT :]:
        counts[position] += 100
    entries = index.entries
    for position in range(len(entries) - 1, max(-1, len(entries) - 65), -1):
        if entries[position].message.turn < entry.message.turn - 1:
            break
        counts[position] += 2
    if not weak:  # this turn and the previous one: every message, however many they hold
        recent = {p for p, e in enumerate(entries) if e.message.turn >= entry.message.turn - 1}
        counts = Counter(
            {p: n for p, n in counts.items() if p in recent or n >= _candidates._LINKED}
        )
    return [entries[p].index for p in _candidates._most_similar(counts)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_MESSAGE, min_size=80, max_size=160), st.sampled_from([1, 2, 3, 4, 70]), st.booleans()
)
def test_candidates_counted_in_one_pass_are_those_counted_key_by_key(
    texts: list[str], per_turn: int, weak: bool
) -> None:
    """Long random conversations from a small vocabulary, so that keys pass every posting limit
    (rare facts, common facts, common words) and more than the most candidates tie."""
    index = _candidates._Index()
    for position, text in enumerate(texts):
        message = Message(
            id=f"m{position}", turn=position // per_turn, role="bot", sender="bot", text=text
        )
        entry = _candidates._entry(position, message)
        expected = _counted_key_by_key(index, entry, weak=weak)
        assert [e.index for e in index.candidates(entry, weak=weak)] == expected
        index.add(entry)


def _conversation(texts: list[str]) -> tuple[_candidates._Index, _candidates.Entry]:
    """An index of ``texts`` sent one per turn, and the entry of the last one (not indexed)."""
    index = _candidates._Index()
    entries = [
        _candidates._entry(
            position, Message(id=f"m{position}", turn=position, role="bot", sender="bot", text=text)
        )
        for position, text in enumerate(texts)
    ]
    for entry in entries[:-1]:
        index.add(entry)
    return index, entries[-1]


def test_an_earlier_turn_linked_by_two_uncommon_words_is_a_candidate_only_for_every_pair() -> None:
    """Three turns apart, two messages that share two content words and nothing else: compared
    for fitting or a judge (``weak``), not for the decision alone; a third shared word or the
    previous turn makes them candidates again."""
    first = "The lighthouse museum closes early because of the storm warning."
    unrelated = ["Your parcel left the depot this morning.", "The invoice was paid in full."]
    two = "Our museum shop sells lighthouse postcards for everyone."
    three = "Our museum shop sells lighthouse postcards during every storm."
    index, entry = _conversation([first, *unrelated, two])
    assert [e.index for e in index.candidates(entry, weak=True)] == [0, 2]
    assert [e.index for e in index.candidates(entry)] == [2]  # the previous turn, always
    index, entry = _conversation([first, *unrelated, three])
    assert [e.index for e in index.candidates(entry)] == [0, 2]
    index, entry = _conversation([*unrelated, first, two])
    assert [e.index for e in index.candidates(entry)] == [2]


def test_a_command_keeps_the_last_conversations_analyses_until_the_next() -> None:
    first, second = (generated(seed, 30, modes_known=True) for seed in (6, 7))

    def analysed(run: object) -> list[Message]:
        assert isinstance(run, duplicates._Run)
        return [s.message for s in run.steps if isinstance(s, duplicates.Entry)]

    kept: list[object] = []
    with worker_processes(1, kept=kept):
        found = detect(first)
        [run] = kept
        assert analysed(run) == [m for m in first.messages if m.role == "bot" and m.text.strip()]
        detect(second)
        [later] = kept  # the first conversation's are let go when the second's start
        assert analysed(later) == [m for m in second.messages if m.role == "bot" and m.text.strip()]
    detect(first)  # outside the block nothing is kept
    assert kept == [later]
    assert found == detect(first)
