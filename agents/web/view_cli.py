"""``meeplezoo view REPLAY``: write a replay as a self-contained HTML page."""

from __future__ import annotations

HELP = "write a replay as one HTML page to watch in a browser"


def add_arguments(parser) -> None:
    parser.add_argument("replay", help="replay JSON (from 'meeplezoo arena --replays' or 'meeplezoo serve')")
    parser.add_argument(
        "-o", "--output", default=None, help="HTML file to write (default: beside the replay, .html)"
    )
    parser.add_argument(
        "--viewer",
        type=int,
        default=None,
        metavar="SEAT",
        help="show only what this seat may know (default: a spectator who sees everything)",
    )


def run(args) -> int:
    from meeplezoo.agents.web.viewer_page import write_viewer_page
    from meeplezoo.cli import user_input

    with user_input():  # a file that is missing or does not fit, a viewer that is no seat
        out = write_viewer_page(args.replay, args.output, args.viewer)
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
    return 0
