"""Which errors stand for a stop signal: the import's clean stop and its exit code depend on it."""

from __future__ import annotations

import signal

import duckdb

from studdraw.pipeline.importer.stopping import StopRequested, stop_signal


def test_ctrl_c_and_duckdbs_interrupt_stand_for_sigint() -> None:
    assert stop_signal(KeyboardInterrupt()) == signal.SIGINT
    assert stop_signal(duckdb.InterruptException("INTERRUPT Error")) == signal.SIGINT


def test_a_requested_stop_keeps_its_signal_and_other_errors_stand_for_none() -> None:
    assert stop_signal(StopRequested(signal.SIGTERM)) == signal.SIGTERM
    assert stop_signal(duckdb.IOException("disk full")) is None
    assert stop_signal(ValueError("no")) is None
