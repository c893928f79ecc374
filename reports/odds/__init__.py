"""The statistical audit: the results of the recorded coups against the games' exact odds.

An auditor of a player-banked game asks whether the results look like the game's real odds,
per table, per banker, per croupier, per night, over any period (docs/odds.md, "The audit").
The recorded journal of each table session is replayed through the engine (`replay`): every
settled coup gives the measures the simulator gives (`tables.engine.simulate.runner`), computed
by the same observers, and the conditions its expected values depend on (the stake, the number
of coupeurs, the hands). `expected` gives each coup's expected values for its table's settings
(`tables.engine.simulate.exact`); `audit` groups the coups, computes each measure's z-score and
flags; `selectors` reads what is needed in a fixed number of queries; `funnel` draws the funnel
plot and `files` the CSV. The screen is `views`, the API `reports/api/odds.py`.
"""
