"""The web table's server: moves change the game only when legal and current,
bad requests get a 4xx and change nothing, and every answer is built only
from the human seat's information."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.agents.web.seat_payload import seat_payload
from meeplezoo.agents.web.server import create_app
from meeplezoo.agents.web.tables import TableSettings
from meeplezoo.envs.core.replay import ReplayRecord, replay_final_state
from tests.web.helpers import TestClient, config_for, hidden_seatings, seatings


def _client(tmp_path, game="gem_mountain_v0", agents=("human", "random"), seed=1) -> TestClient:
    settings = TableSettings(
        game=game,
        agents=list(agents),
        config=config_for(game, len(agents)),
        seed=seed,
        replay_dir=tmp_path / "replays",
    )
    return TestClient(create_app(settings))


def _new(client) -> dict:
    response = client.post("/api/games", json={})
    assert response.status_code == 201
    return response.json()


def _step(client, view, rng) -> dict:
    """The human's random legal move on their turn, else one bot move."""
    if view["yourTurn"]:
        action = view["legal"][int(rng.integers(len(view["legal"])))]["action"]
        response = client.post(
            f"/api/games/{view['id']}/move", json={"version": view["version"], "action": action}
        )
    else:
        response = client.post(f"/api/games/{view['id']}/advance", json={"version": view["version"]})
    assert response.status_code == 200, response.text
    return response.json()


def _your_turn(client, view, rng) -> dict:
    while not view["yourTurn"]:
        view = _step(client, view, rng)
    return view


def test_the_page_is_served(tmp_path):
    page = _client(tmp_path).get("/")
    assert page.status_code == 200 and "<!DOCTYPE html>" in page.text
    assert "http://" not in page.text and "https://" not in page.text


def test_a_legal_move_gives_the_new_state(tmp_path):
    client = _client(tmp_path)
    view = _your_turn(client, _new(client), np.random.default_rng(0))
    move = view["legal"][0]
    after = client.post(
        f"/api/games/{view['id']}/move", json={"version": view["version"], "action": move["action"]}
    )
    assert after.status_code == 200
    after = after.json()
    assert after["version"] == view["version"] + 1
    assert after["history"][-1] == {"seat": view["seat"], "label": move["label"]}
    assert client.get(f"/api/games/{view['id']}").json() == after


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"version": "stale", "action": "illegal"}, 422, "is not a legal move"),
        ({"version": "stale", "action": 10**6}, 422, "is not a legal move"),
        ({"version": -1, "action": "legal"}, 409, "stale request"),
        ({"version": "current", "action": True}, 400, "integer 'action'"),
        ({"action": "legal"}, 400, "integer 'version'"),
        ([1, 2], 400, "must be a JSON object"),
    ],
)
def test_a_refused_move_changes_nothing(tmp_path, body, status, message):
    client = _client(tmp_path)
    view = _your_turn(client, _new(client), np.random.default_rng(0))
    legal = {m["action"] for m in view["legal"]}
    if isinstance(body, dict):
        body = dict(body)
        if body.get("version") in ("stale", "current"):
            body["version"] = view["version"]
        if body.get("action") == "illegal":
            body["action"] = min(set(range(1000)) - legal)
        elif body.get("action") == "legal":
            body["action"] = min(legal)
    response = client.post(f"/api/games/{view['id']}/move", json=body)
    assert response.status_code == status
    assert message in response.json()["error"]
    assert client.get(f"/api/games/{view['id']}").json() == view


def test_a_repeated_click_is_stale(tmp_path):
    client = _client(tmp_path)
    view = _your_turn(client, _new(client), np.random.default_rng(0))
    body = {"version": view["version"], "action": view["legal"][0]["action"]}
    assert client.post(f"/api/games/{view['id']}/move", json=body).status_code == 200
    now = client.get(f"/api/games/{view['id']}").json()
    again = client.post(f"/api/games/{view['id']}/move", json=body)
    assert again.status_code == 409 and "stale" in again.json()["error"]
    assert client.get(f"/api/games/{view['id']}").json() == now


def test_bots_do_not_move_in_the_humans_turn(tmp_path):
    client = _client(tmp_path)
    view = _your_turn(client, _new(client), np.random.default_rng(0))
    response = client.post(f"/api/games/{view['id']}/advance", json={"version": view["version"]})
    assert response.status_code == 409 and "your turn" in response.json()["error"]
    assert client.get(f"/api/games/{view['id']}").json() == view


def test_unknown_games_malformed_bodies_and_unknown_paths_get_json_errors(tmp_path):
    client = _client(tmp_path)
    view = _new(client)
    assert client.get("/api/games/nope").status_code == 404
    assert "no game" in client.post("/api/games/nope/move", json={"version": 0, "action": 0}).json()["error"]
    bad = client.post(
        f"/api/games/{view['id']}/advance", content=b"{oops", headers={"content-type": "application/json"}
    )
    assert bad.status_code == 400 and "not valid JSON" in bad.json()["error"]
    form = client.post(f"/api/games/{view['id']}/advance", content=b"version=0")
    assert form.status_code == 415
    assert client.get("/nowhere").json() == {"error": "Not Found"}
    assert client.get(f"/api/games/{view['id']}").json() == view


@pytest.mark.parametrize(("name", "players"), seatings())
def test_every_game_at_every_size_plays_through_the_server(tmp_path, name, players):
    """Human in the last seat; Gem Mountain (short) is played out and its
    replay matches the page's result, the others stop after some moves."""
    agents = ["random"] * (players - 1) + ["human"]
    client = _client(tmp_path, name, agents, seed=players)
    view = _new(client)
    assert view["seat"] == players - 1 and view["agents"][-1] == "you"
    rng = np.random.default_rng(players)
    for _ in range(200 if name == "gem_mountain_v0" else 30):
        if view["done"]:
            break
        assert bool(view["legal"]) == view["yourTurn"]
        view = _step(client, view, rng)
    assert len(view["history"]) == view["version"]
    assert view["done"] or name != "gem_mountain_v0"
    if view["done"]:
        record = ReplayRecord.load(view["result"]["replay"])
        assert record.meta["agents"] == agents
        assert [float(r) for r in replay_final_state(record).returns()] == view["result"]["returns"]


def test_a_finished_game_is_saved_as_a_replay_that_reruns(tmp_path):
    client = _client(tmp_path, seed=5)
    view, rng = _new(client), np.random.default_rng(5)
    while not view["done"]:
        view = _step(client, view, rng)
    path = view["result"]["replay"]
    record = ReplayRecord.load(path)
    assert len(record.actions) == view["version"]
    assert record.meta["returns"] == view["result"]["returns"]
    assert [float(r) for r in replay_final_state(record).returns()] == view["result"]["returns"]
    second = _new(client)
    assert second["id"] != view["id"]
    while not second["done"]:
        second = _step(client, second, rng)
    assert second["result"]["replay"] != path  # never overwritten


def _table(client, view):
    return client.app.state.tables.get(view["id"])


@pytest.mark.parametrize(("name", "players"), hidden_seatings())
def test_the_payload_is_the_same_for_positions_the_human_cannot_tell_apart(tmp_path, name, players):
    human = players // 2
    agents = ["random"] * players
    agents[human] = "human"
    client = _client(tmp_path, name, agents, seed=3)
    view, rng = _new(client), np.random.default_rng(players)
    checked = 0
    for step in range(48):
        if view["done"]:
            break
        if step % 3 == 0:
            table = _table(client, view)
            kwargs = dict(
                table_id=table.id, version=table.version, agents=table.agents, history=table.history
            )
            twin = table.state.determinize(human, rng)
            assert seat_payload(twin, human, **kwargs) == view
            checked += 1
        view = _step(client, view, rng)
    assert checked >= 8


@pytest.mark.parametrize("agents", [["random", "random"], ["human", "human"]])
def test_exactly_one_human_seat(tmp_path, agents):
    with pytest.raises(ValueError, match="exactly one 'human'"):
        _client(tmp_path, agents=agents)


def test_move_groups_split_a_big_group_only_into_real_groups():
    from meeplezoo.agents.web.seat_payload import move_groups

    gold = [f"move {who} {d}" for who in ("pro", "A", "B") for d in ("E", "NE", "W")] + ["end"]
    assert move_groups(gold) == ["move pro"] * 3 + ["move A"] * 3 + ["move B"] * 3 + ["end"]
    places = [f"place defender {c},2" for c in range(12)]
    assert set(move_groups(places)) == {"place"}
    anchors = [f"anchor {r} {c}" for r in range(12) for c in range(r % 2 + 1)]
    assert set(move_groups(anchors)) == {"anchor"}
    assert move_groups(["grab (0,1)", "use Gust", "done"]) == ["grab", "use", "done"]
