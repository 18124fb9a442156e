"""The sans-IO formation rule: who opens a table, and passing over a leader that never invites."""

from __future__ import annotations

from tarock.net.formation import Form, Formation, Wait

A, B, C, D, E = "a" * 16, "b" * 16, "c" * 16, "d" * 16, "e" * 16


def peers(*ids: str, boot: str = "1") -> list[tuple[str, str]]:
    return [(i, boot) for i in ids]


def test_the_smallest_id_opens_the_table_once_its_view_has_settled() -> None:
    f = Formation(A, 4, settle=0.3, patience=5)
    assert f.step(0.0, peers(B, C)) == Wait(None)  # too few
    assert f.step(0.1, peers(B, C, D, E)) == Wait(A)
    assert f.step(0.3, peers(B, C, D, E)) == Wait(A)  # 0.2 s settled: not yet
    assert f.step(0.4, peers(B, C, D, E)) == Form((B, C, D))


def test_a_leader_that_never_invites_is_passed_over_and_the_next_smallest_id_forms() -> None:
    # The stale advert of A (killed while waiting) has the smallest id; B, C, D, E are alive.
    views = {me: Formation(me, 4, settle=0.3, patience=5) for me in (B, C, D, E)}

    def everyone(now: float) -> dict[str, Form | Wait]:
        return {me: f.step(now, peers(*(x for x in (A, B, C, D, E) if x != me))) for me, f in views.items()}

    first = everyone(0.0)
    assert first == {B: Wait(A), C: Wait(A), D: Wait(A), E: Wait(A)}
    assert everyone(4.9)[B] == Wait(A)  # still patient
    passed = everyone(5.0)
    # B, C and D would be invited by A; E would not (A forms with the four smallest) and waits on.
    assert passed == {B: Wait(None, passed_over=A), C: Wait(None, passed_over=A),
                      D: Wait(None, passed_over=A), E: Wait(A)}
    assert everyone(5.1)[B] == Wait(B)
    decided = everyone(5.4)
    assert decided[B] == Form((C, D, E))  # B now leads and invites C, D and E
    assert decided[C] == Wait(B) and decided[D] == Wait(B)


def test_a_passed_over_node_that_restarts_gets_a_new_chance_and_one_that_leaves_is_not_waited_for() -> None:
    f = Formation(B, 4, settle=0.3, patience=2)
    f.step(0.0, peers(A, C, D))
    assert f.step(2.0, peers(A, C, D)) == Wait(None, passed_over=A)
    assert f.step(2.1, peers(A, C, D)) == Wait(None)  # without A only three: wait
    assert f.step(2.2, [(A, "2"), (C, "1"), (D, "1")]) == Wait(A)  # A restarted (a new boot)
    assert f.step(3.0, peers(C, D, E)) == Wait(B)  # A gone, E came: B leads
    assert f.step(3.4, peers(C, D, E)) == Form((C, D, E))


def test_a_node_outside_the_leaders_table_does_not_pass_it_over() -> None:
    f = Formation(E, 4, settle=0.3, patience=1)
    for t in range(10):
        assert f.step(float(t), peers(A, B, C, D)) == Wait(A)
    assert not f.passed
