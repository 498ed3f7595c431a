"""The pages in a real browser: a replay page opened from disk, stepped
through with the buttons and the keyboard, and a whole game played at
``meeplezoo serve`` by clicking the legal-move buttons."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request

import numpy as np
import pytest

from meeplezoo.agents.web.viewer_page import viewer_html
from meeplezoo.envs.core.replay import ReplayRecord, replay_final_state, replay_states
from tests.web.browser import canvas_picture, chromium, free_port, screenshot_on_failure
from tests.web.helpers import random_replay

pytestmark = pytest.mark.browser


def _wait(driver, condition, timeout: float = 20.0):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition(d))


def _text(driver, element_id: str) -> str:
    return driver.find_element("id", element_id).text


def test_replay_page_steps_through_every_move(tmp_path):
    from selenium.webdriver.common.keys import Keys

    record = random_replay("gem_mountain_v0", 2, seed=8)
    page = tmp_path / "game.html"
    page.write_text(viewer_html(record), encoding="utf-8")
    states = [s.clone() for s in replay_states(record)]
    expected = ["start of the game"] + [
        f"player_{states[i].current_player}: {states[i].action_to_string(a)}"
        for i, a in enumerate(record.actions)
    ]
    last = len(record.actions)
    with chromium() as driver, screenshot_on_failure(driver, "replay-page"):
        driver.get(page.as_uri())
        _wait(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "true")
        assert np.array_equal(canvas_picture(driver, "board"), states[0].render_rgb(None))
        for k in range(1, last + 1):
            driver.find_element("id", "next").click()
            assert _text(driver, "last-move") == expected[k]
            assert _text(driver, "counter") == f"move {k} of {last}"
        assert _text(driver, "status").startswith("game over")
        assert np.array_equal(canvas_picture(driver, "board"), states[-1].render_rgb(None))
        body = driver.find_element("tag name", "body")
        body.send_keys(Keys.HOME)
        assert _text(driver, "last-move") == expected[0]
        for k in range(1, last + 1):
            body.send_keys(Keys.ARROW_RIGHT)
            assert _text(driver, "last-move") == expected[k]
        for k in range(last - 1, last - 6, -1):
            body.send_keys(Keys.ARROW_LEFT)
            assert _text(driver, "last-move") == expected[k]
        middle = last // 2
        driver.find_element("id", "first").click()
        driver.execute_script(
            "const s = document.getElementById('slider');"
            f"s.value = '{middle}'; s.dispatchEvent(new Event('input'));"
        )
        assert _text(driver, "last-move") == expected[middle]
        assert np.array_equal(canvas_picture(driver, "board"), states[middle].render_rgb(None))
        driver.find_element("id", "last").click()
        body.send_keys(Keys.END)
        assert _text(driver, "last-move") == expected[last]
        driver.find_element("id", "prev").click()
        assert _text(driver, "last-move") == expected[last - 1]
        body.send_keys(Keys.HOME)
        driver.execute_script("document.getElementById('speed').value = '15';")
        position = lambda: int(driver.find_element("id", "slider").get_attribute("value"))  # noqa: E731
        body.send_keys(Keys.SPACE)  # play...
        _wait(driver, lambda d: position() >= 3, timeout=10)
        body.send_keys(Keys.SPACE)  # ...and pause
        stopped = position()
        time.sleep(0.3)
        assert position() == stopped < last
        assert _text(driver, "last-move") == expected[stopped]
        assert driver.get_log("browser") == []


def _serve(port: int, replays) -> subprocess.Popen:
    command = [sys.executable, "-m", "meeplezoo.cli", "serve", "gem_mountain", "--agents", "human", "random"]
    command += ["--seed", "4", "--port", str(port), "--replays", str(replays)]
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=os.environ.copy()
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).close()
            return server
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise AssertionError(f"meeplezoo serve did not start: {server.communicate()[0]!r}") from None
            time.sleep(0.1)


def test_a_whole_game_at_the_web_table(tmp_path):
    port = free_port()
    server = _serve(port, tmp_path)
    try:
        with chromium() as driver, screenshot_on_failure(driver, "web-table"):
            body = lambda: driver.find_element("tag name", "body")  # noqa: E731
            driver.get(f"http://127.0.0.1:{port}/?delay=0")
            clicks = 0
            while True:
                _wait(driver, lambda d: body().get_attribute("data-state") in ("your-turn", "over"))
                if body().get_attribute("data-state") == "over":
                    break
                version = body().get_attribute("data-version")
                buttons = [
                    b for b in driver.find_elements("css selector", "#legal button") if b.is_displayed()
                ]
                assert buttons, "no legal-move button on the human's turn"
                buttons[clicks % len(buttons)].click()
                clicks += 1
                _wait(driver, lambda d, v=version: body().get_attribute("data-version") != v)
            returns = json.loads(driver.find_element("id", "result").get_attribute("data-returns"))
            result_text = _text(driver, "result")
            assert driver.get_log("browser") == []
    finally:
        server.terminate()
        server.wait(10)
    (saved,) = tmp_path.glob("*.json")
    assert f"meeplezoo view {saved}" in result_text
    record = ReplayRecord.load(saved)
    assert clicks > 5
    assert record.meta["returns"] == returns
    assert [float(r) for r in replay_final_state(record).returns()] == returns
