"""The guide's checker: reads pages, snippets and claims for the tests and for `dev.py regen`."""
