"""Calibration: cards given odds near 30% are held about 30% of the time in simulated games.

The odds count every fitting deal as equally likely; they are exact for that model. The bots
who play the simulated games choose their asks from what they hold, so their asks tell a little
more than the rules say, and cards turn up with the likelier holder somewhat more often than the
uniform odds predict. The test states its tolerance accordingly: in every odds band with at least
300 samples, the share of cards that were really there is within 0.10 of the mean predicted odds,
the model is never over-confident by more than 0.04, and the observed share rises band by band.
"""

from __future__ import annotations

import random
from collections import defaultdict

from analyzer.knowledge import PUBLIC, ViewTracker
from analyzer.odds import card_odds
from analyzer.replay import replay
from analyzer.simulate import simulate

from .oracle import location_after

TOLERANCE = 0.10
OVERCONFIDENT = 0.04
MIN_SAMPLES = 300


def test_odds_are_calibrated_on_simulated_games() -> None:
    rng = random.Random(20261130)
    bands: dict[int, list[float]] = defaultdict(lambda: [0, 0.0, 0])  # samples, sum of odds, hits
    for seed in range(40):
        record = simulate(players=6, seed=seed)
        truth = {c: p for p, cards in record.hands.items() for c in cards}
        game = replay(record)
        for view in (PUBLIC, rng.choice(record.players)):
            tracker = ViewTracker(game, view)
            for at in rng.sample(range(1, len(game.events)), 3):
                pos = tracker.position(at)
                where = location_after(record, truth, at)
                shares = card_odds(pos).cards
                for card in pos.allowed:
                    for player, f in shares[card].items():
                        if 0 < f < 1:
                            band = bands[min(9, int(f * 10))]
                            band[0] += 1
                            band[1] += float(f)
                            band[2] += where[card] == player
    observed = []
    for k in sorted(bands):
        n, total, hits = bands[k]
        if n < MIN_SAMPLES:
            continue
        predicted, share = total / n, hits / n
        assert abs(share - predicted) <= TOLERANCE, (k, n, predicted, share)
        assert predicted - share <= OVERCONFIDENT, (k, n, predicted, share)
        observed.append(share)
    assert len(observed) >= 4
    assert observed == sorted(observed)
