"""The rules page of every game, as implemented (Markdown), shipped with the
package so an installed wheel carries the documents its docstrings cite."""
