"""guidetools/tomllines.py: where a TOML file's tables and keys stand, for the readers of the guide's TOML records."""

import tomllib

from guidetools.tomllines import key_lines, table_lines

TEXT = '''[pin]
repo = "x"

[facts.V1]  # a comment after the header
text = """
[a link](https://example.org) in a multi-line string
"""
cites = [
  { path = "a.cs", line = 1 },
]

[facts."N.2"]
text = "quoted"

[not-observable]
"agent.a" = "why"
  agent-b="why too"

[[erratum]]
id = "first"

[[erratum]]
page = "p.md"
id = "second"
'''


def test_each_key_of_a_table_is_found_at_its_header_or_its_line_as_tomllib_reads_it():
    data = tomllib.loads(TEXT)
    assert table_lines(TEXT, "facts") == {"V1": 4, "N.2": 12}
    assert table_lines(TEXT, "not-observable") == {"agent.a": 16, "agent-b": 17}
    for table in ("facts", "not-observable"):
        assert list(table_lines(TEXT, table)) == list(data[table])
    assert [number for path, number in key_lines(TEXT) if path == ("erratum", "id")] == [20, 24]
    assert [entry["id"] for entry in data["erratum"]] == ["first", "second"]
