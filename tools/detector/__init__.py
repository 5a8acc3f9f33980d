"""Training and measuring the duplicate detector's learned parts (see ``docs/detector.md``).

- ``sgd``: reads the Schema-Guided Dialogue data and builds labelled transcripts from it.
- ``linear``: logistic regression in numpy (training only; the package infers in pure Python).
- ``fit``: fits the dialogue-act tagger and the pair scorer, and measures them out of sample.
"""
