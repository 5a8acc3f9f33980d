"""The SDK's one text layer: sentences, claims, typed facts and words.

Used by the duplicate detector and the runtime guard (claims and facts), the linter (reading
instructions sentence by sentence) and the rules model (words). Splitting keeps Power Fx ``{…}``
references, code spans, URLs and e-mail addresses whole, and every piece keeps its offsets in the
original text.
"""

from harness.text._split import Span, split_claims, split_sentences, strip_markdown
from harness.text.claims import (
    ANALYSIS_BUDGET,
    CLAIM_BUDGET,
    Analysis,
    Claim,
    analyse,
    analysed_part,
)
from harness.text.facts import STRONG_KINDS, Fact, extract_facts
from harness.text.words import QUOTE_LIMIT, STOPWORDS, content_words, normalise, quote, stem, tokens

__all__ = [
    "ANALYSIS_BUDGET",
    "CLAIM_BUDGET",
    "QUOTE_LIMIT",
    "STOPWORDS",
    "STRONG_KINDS",
    "Analysis",
    "Claim",
    "Fact",
    "Span",
    "analyse",
    "analysed_part",
    "content_words",
    "extract_facts",
    "normalise",
    "quote",
    "split_claims",
    "split_sentences",
    "stem",
    "strip_markdown",
    "tokens",
]
