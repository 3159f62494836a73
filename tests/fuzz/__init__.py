"""The fuzz harness: hostile inputs (random bytes, real hands mutated, mixed rooms, encodings,
line ends, archives, huge lines) driven by hypothesis through `parse`, `validate` and
`ingest`, checking that nothing crashes, nothing hangs and no hand is lost.

`tests/fuzz/test_fuzz.py` runs it briefly with the test suite; `python -m tests.fuzz --inputs
100000` runs it for as long as asked and prints its figures (docs/reliability.md)."""
