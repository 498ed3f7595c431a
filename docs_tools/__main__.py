"""``python -m docs_tools``: write every image of the site into docs/images."""

from __future__ import annotations

import argparse

from docs_tools.figures import IMAGES, ROOT, write_all


def main() -> None:
    parser = argparse.ArgumentParser(description="Write every image of the documentation site.")
    parser.add_argument(
        "--no-arena",
        action="store_true",
        help="only the figures drawn from code and JSON: no arena report, replay pages or screenshot",
    )
    args = parser.parse_args()
    for path in write_all(IMAGES, with_arena=not args.no_arena):
        print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
