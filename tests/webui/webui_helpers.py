"""Constants shared by the dashboard tests."""

TOKEN = "test-token"
GAME, SEED = "dolcevita", 5
START = {"game": GAME, "players": [{"name": "Ann", "colour": "#ff0000"}, {"name": "Bob", "colour": "#0000ff"}],
         "seed": SEED}
