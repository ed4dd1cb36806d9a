"""A notebook in a script: the lockout of the Fish rules, asked from Python.

Run from the project's root (``python docs/example.py [OUT_DIR]``); each ``# %%`` cell runs in
Jupyter or VS Code as it is.
"""

# %% Read and replay a record: every rule is checked on the way.
import sys
import tempfile

from analyzer import (
    analyze,
    events_table,
    holders,
    holders_table,
    load,
    lockouts,
    mistakes,
    odds,
    odds_table,
    parse_card,
    replay,
    report,
)

game = replay(load("sample_logs/lockout.fish"))
print(f"{len(game.events)} events, score {game.final.score[0]}–{game.final.score[1]}")

# %% Who can hold 7♠ after event 11, as the whole table sees it, and with what odds.
seven = parse_card("7S")
print("7♠ can be with", holders(game, 11)[seven])
for player, chance in odds(game, 8).cards[seven].items():
    print(f"  after event 8: {player} {float(chance):.1%}")

# %% Every view at every step at once, then the tactics.
analysis = analyze(game)
for lockout in lockouts(analysis, 11):
    print(f"lockout on {lockout.book.pretty}: team 1 must not ask {', '.join(lockout.avoid(1))}")
for m in mistakes(analysis, odds=True).mistakes:
    print(f"event {m.number}: {m.player}, {m.kind}: {m.why}")  # numbered as the record numbers it

# %% Tables (polars DataFrames; `.to_pandas()` with the pandas extra installed).
known = holders_table(analysis).filter(view="public", known=True).group_by("step").len().sort("step")
print(known.tail(3))
print(odds_table(game, steps=[8]).filter(card="7S").select("player", "odds", "exact"))
print(events_table(game).select("event", "kind", "player", "target", "card", "yes").head(4))

# %% The post-game report, as `halfsuit report` writes it.
out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()
files = report(game, out)
print("report:", files.html)
