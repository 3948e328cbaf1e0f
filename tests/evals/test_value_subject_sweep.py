"""The value-subject bar is swept by replaying recorded measures (evals/value_subject_sweep.py)."""

from __future__ import annotations

from dataclasses import replace

from evals.calibration import Signal, answered_at, current_bar
from evals.value_subject_sweep import at_bar, sweep


def _signal(view: str, measured: tuple[float, float] | None, right: bool) -> Signal:
    return Signal("real2", view, 0.95, 0.9, False, True, right, slot="duration", max_dense_slot=0.95,
                  value_quoted=True, value_subject=measured, must_contain=right if view == "normal" else None)


def test_a_recorded_measure_replays_at_any_bar():
    far = _signal("unanswerable", (0.2, 0.0), right=False)
    today = current_bar()
    assert answered_at(at_bar([far], 0.3)[0], today)  # its passage holds a term rarer than 0.3
    assert not answered_at(at_bar([far], 0.1)[0], today)
    assert answered_at(at_bar([far], None)[0], today)  # no check
    assert at_bar([replace(far, value_subject=None)], 0.1)[0].value_subject is None


def test_the_sweep_chooses_on_dev_and_switches_off_a_check_that_changes_too_little():
    dev = [_signal("normal", (0.0, 0.0), True), *[_signal("unanswerable", (0.5, 0.0), False) for _ in range(3)],
           _signal("normal", (0.04, 0.0), True)]
    report = sweep(dev, dev)
    assert report["chosen"] is not None and 0.04 <= report["chosen"] < 0.5
    # the bar keeps the right answer whose passage holds a term of share 0.04 and refuses the three others
    point = next(p for p in report["points"] if p["max_share"] == report["chosen"])
    assert point["dev"]["refused_unanswerable"] == 1.0 and point["dev"]["answered_share"] == 1.0
    lone = sweep(dev[:2], dev[:2])
    assert lone["chosen"] is None  # one changed outcome is not evidence
