"""提示 (hint) helpers: a sensible lead for a hand."""

from __future__ import annotations

from games.doudizhu import rules


def suggest_lead(counts: list[int]) -> tuple[int, ...]:
    """Lead the lowest group that breaks no bomb: a single, a pair, or a trio with the lowest single."""
    groups = [r for r in range(rules.N_RANKS) if 0 < counts[r] < 4]
    jokers = counts[rules.RANK_XJ] and counts[rules.RANK_DJ]
    if jokers:
        groups = [r for r in groups if r < rules.RANK_XJ]
    play = [0] * rules.N_RANKS
    if not groups:
        bombs = [r for r in range(rules.N_RANKS) if counts[r] == 4]
        if bombs:
            play[bombs[0]] = 4
        else:
            play[rules.RANK_XJ] = play[rules.RANK_DJ] = 1
        return tuple(play)
    low = groups[0]
    play[low] = counts[low]
    if counts[low] == 3:
        singles = [r for r in groups if counts[r] == 1 and r != low]
        if singles:
            play[singles[0]] = 1
    return tuple(play)
