"""The documentation site's generators: pictures, plots and tables.

``python -m docs_tools`` writes every image the site and the README show
(board pictures, learning curves, rating and throughput charts) from the
games and from the JSON in ``benchmarks/results/``; ``docs_tools.hooks``
writes the generated tables into the pages while MkDocs builds them. Kept
outside the installed package: it reads the repository's results and
writes into ``docs/``, neither of which ships in the wheel.
"""
