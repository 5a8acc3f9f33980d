"""Build the questions back the multi-intent mutation puts in place of a dropped answer
(``tests/detect/multi_intent.py``, :func:`~tests.detect.multi_intent.questions_back`).

``questions-train.txt`` / ``questions-dev.txt`` (``tests/fixtures/multi_intent``): real SGD system
turns whose only act is ``REQUEST`` (the system asks the user for a detail of its task: "How many
people will be dining?"), from SGD **train** for the development splits and SGD **dev** for the
held-out ones (the split rule of ``fillers-*.txt``). One line each, ``DOMAIN<TAB>QUESTION``
(the service's domain, "Restaurants"). Kept: a turn whose every slot asked for is asked for in one
domain only across the split ("number_of_seats" yes, "city" or "date" no), so the question asks
for a detail of its own domain's task and not for one a request of another domain may need too
("Which city?" fits a weather question as well as a restaurant). At most :data:`PER_DOMAIN`
distinct questions per domain, in file order. Deterministic::

    .venv/bin/python -m tests.detect.build_questions_back

SGD: Rastogi et al., "Towards Scalable Multi-domain Conversational Agents: The Schema-Guided
Dialogue Dataset", AAAI 2020, CC BY-SA 4.0.
"""

from __future__ import annotations

from collections import defaultdict

from tests.detect.build_fresh_multi_intent import _dialogues
from tests.detect.build_multi_intent import OUT

PER_DOMAIN = 30


def _domain(service: str) -> str:
    return service.split("_")[0]


def sgd_questions(split: str) -> list[tuple[str, str]]:
    """(domain, question) pairs: system turns asking only for slots of their own domain."""
    asked: list[tuple[str, frozenset[str], str]] = []
    domains_of: dict[str, set[str]] = defaultdict(set)
    for dialogue in _dialogues(split):
        for turn in dialogue["turns"]:
            if turn["speaker"] != "SYSTEM" or len(turn["frames"]) != 1:
                continue
            frame = turn["frames"][0]
            acts = frame["actions"]
            if not acts or any(a[0] != "REQUEST" for a in acts):
                continue
            domain = _domain(frame["service"])
            slots = frozenset(a[1] for a in acts)
            for slot in slots:
                domains_of[slot].add(domain)
            asked.append((domain, slots, " ".join(turn["text"].split())))
    out: dict[str, dict[str, None]] = defaultdict(dict)
    for domain, slots, text in asked:
        if all(domains_of[s] == {domain} for s in slots) and len(out[domain]) < PER_DOMAIN:
            out[domain].setdefault(text, None)
    return [(domain, text) for domain in sorted(out) for text in out[domain]]


def main() -> None:
    for split in ("train", "dev"):
        questions = sgd_questions(split)
        lines = "".join(f"{domain}\t{text}\n" for domain, text in questions)
        (OUT / f"questions-{split}.txt").write_text(lines, encoding="utf-8")
        print(f"questions-{split}: {len(questions)}")


if __name__ == "__main__":
    main()
