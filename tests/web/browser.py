"""Headless Chromium from Debian's packages, driven by Selenium, for the
browser tests. A missing browser or driver fails the test with that reason."""

from __future__ import annotations

import base64
import io
import shutil
import socket
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def chromium(width: int = 1280, height: int = 800):
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.is_file()]
    if missing:
        pytest.fail(
            f"the browser tests need Debian's chromium and chromium-driver, missing {', '.join(missing)} "
            "(apt-get install chromium chromium-driver)"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="meeplezoo-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@contextmanager
def screenshot_on_failure(driver, name: str):
    """On a failure, save what the page looked like and print where."""
    try:
        yield
    except BaseException:
        folder = Path(tempfile.mkdtemp(prefix="meeplezoo-browser-failure-"))
        path = folder / f"{name}.png"
        driver.save_screenshot(str(path))
        print(f"screenshot of the failing page: {path}")
        raise


def canvas_picture(driver, element_id: str) -> np.ndarray:
    """What a canvas shows now, as an HxWx3 uint8 array."""
    uri = driver.execute_script(f"return document.getElementById('{element_id}').toDataURL('image/png');")
    raw = base64.b64decode(uri.split(",", 1)[1])
    with Image.open(io.BytesIO(raw)) as image:
        return np.asarray(image.convert("RGB"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
