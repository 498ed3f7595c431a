"""Watching and playing in the browser.

``meeplezoo view`` turns a replay into one self-contained HTML page
(:mod:`.viewer_page`); ``meeplezoo serve`` is a local web table where a
person plays against bots (:mod:`.server`, :mod:`.table`). Both show a seat
only what that seat may know: pictures from ``render_rgb(viewer)`` and move
names from :mod:`.move_labels`.
"""
